package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/internal/transcode"
	"go.yaml.in/yaml/v3"
)

// A bundler turns a document whose $refs point into other files into one
// document. Each referenced object becomes an entry of the root document's
// components (definitions, parameters or responses in Swagger 2.0), named
// after its file or its own key, and the $ref then points there; a path
// item is copied in place of its $ref, as OpenAPI 3.0 has no section for
// it. $refs with a scheme (http:, https:, ...) are left as they are, and so
// are $refs inside literal values (examples, defaults, x- extensions).
type bundler struct {
	fsys       fs.FS
	readFile   ReadFunc
	rootFile   string // the root document's path; "" when it was given as bytes
	rootSource string // the root document's name in errors
	root       *yaml.Node
	swagger2   bool

	docs    map[string]*yaml.Node // parsed files, by cleaned path
	files   []string              // every file read, the root's first
	targets map[string]string     // "file#pointer" -> the bundled $ref
	names   map[string]map[string]bool
	added   []bundled           // new component entries, in the order found
	visited map[*yaml.Node]bool // root nodes already walked (aliases)
	inline  []string            // "file#pointer" of the path items being copied, for cycles
	budget  int                 // nodes still allowed to be copied or walked
	read    int                 // bytes read from referenced files
}

// bundled is one new components entry.
type bundled struct {
	section, name string
	node          *yaml.Node
}

// refError is a broken $ref: where the $ref is and what is wrong.
func (b *bundler) refError(file string, n *yaml.Node, format string, args ...any) error {
	if file == "" {
		file = b.rootSource
	}
	return &transcode.Error{Source: file, Line: n.Line, Err: fmt.Errorf(format, args...)}
}

// HasFileRefs reports whether a document may hold a $ref to another file:
// a "$ref" key (quoted or not, then a colon) whose value starts neither
// with "#" nor with a URL scheme. It errs on the side of yes; the bundler
// then finds nothing to do. Documents without one keep the fast path that
// never builds a tree.
func HasFileRefs(data []byte) bool {
	for {
		i := bytes.Index(data, []byte("$ref"))
		if i < 0 {
			return false
		}
		data = data[i+4:]
		v := data
		if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
			v = v[1:]
		}
		v = bytes.TrimLeft(v, " \t")
		if len(v) == 0 || v[0] != ':' {
			continue // "$ref" in some text, not a key
		}
		v = bytes.TrimLeft(v[1:], " \t")
		if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
			v = v[1:]
		}
		if len(v) > 0 && v[0] != '#' && !hasScheme(string(v[:min(len(v), 40)])) {
			return true
		}
	}
}

// hasScheme reports whether a $ref starts with a URL scheme (http:,
// https:, urn:, ...): a remote reference, which the browser resolves. A
// one-letter "scheme" is a Windows drive, not a URL.
func hasScheme(ref string) bool {
	i := strings.IndexByte(ref, ':')
	if i < 2 {
		return false
	}
	for j, c := range ref[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// ReadFunc reads a file that a $ref names, from fsys when it is not nil.
type ReadFunc func(fsys fs.FS, name string) ([]byte, error)

// Bundle rewrites root, in place, into one document, and returns the files
// it read (the root's own first, when it is a file) and their total size.
// It reads the files the $refs name with readFile.
func Bundle(root *yaml.Node, rootFile, rootSource string, fsys fs.FS, readFile ReadFunc, size int) ([]string, int, error) {
	b := &bundler{
		fsys: fsys, readFile: readFile, rootFile: rootFile, rootSource: rootSource, root: root,
		docs: map[string]*yaml.Node{}, targets: map[string]string{}, names: map[string]map[string]bool{},
		visited: map[*yaml.Node]bool{}, budget: 64*size + 1<<20,
	}
	if rootFile != "" {
		b.files = []string{rootFile}
		// Cleaned like the paths resolve returns, so that a $ref back to
		// the root document is seen as one.
		if fsys != nil {
			b.rootFile = path.Clean(rootFile)
		} else {
			b.rootFile = filepath.Clean(rootFile)
		}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "swagger" {
			b.swagger2 = true
		}
	}
	b.reserveNames()
	if err := b.walk(root, rootFile, ctxRoot, true); err != nil {
		return nil, 0, err
	}
	b.addComponents()
	return b.files, size + b.read, nil
}

// reserveNames notes the names the root document's components already use.
func (b *bundler) reserveNames() {
	for _, sec := range []string{"definitions", "parameters", "responses"} {
		b.reserve(sec, mappingValue(b.root, sec))
	}
	if comps := mappingValue(b.root, "components"); comps != nil {
		for _, sec := range componentSections() {
			b.reserve("components/"+sec.name, mappingValue(comps, sec.name))
		}
	}
}

func (b *bundler) reserve(section string, m *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	if b.names[section] == nil {
		b.names[section] = map[string]bool{}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		b.names[section][m.Content[i].Value] = true
	}
}

// mappingValue returns the value of key in mapping m, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	m = transcode.ResolveAlias(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return transcode.ResolveAlias(m.Content[i+1])
		}
	}
	return nil
}

// walk finds the $refs in n, which is in file and of kind ctx. inRoot is
// true for the root document's own nodes, which are rewritten in place
// (each once, however many aliases lead to it).
func (b *bundler) walk(n *yaml.Node, file string, ctx refContext, inRoot bool) error {
	n = transcode.ResolveAlias(n)
	if n == nil || ctx == ctxLiteral {
		return nil
	}
	if inRoot {
		if b.visited[n] {
			return nil
		}
		b.visited[n] = true
	}
	if b.budget--; b.budget < 0 {
		return b.refError(file, n, "the document is too large to bundle (aliases?)")
	}
	switch n.Kind {
	case yaml.SequenceNode:
		el, ok := ctx.element()
		if !ok && ctx == ctxSchema { // JSON Schema draft 4 "items": [...]
			el, ok = ctxSchema, true
		}
		if !ok {
			return nil
		}
		for _, item := range n.Content {
			if err := b.walk(item, file, el, inRoot); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		if _, isMap := ctx.element(); !isMap {
			if ref := mappingValue(n, "$ref"); ref != nil && ref.Kind == yaml.ScalarNode {
				done, err := b.ref(n, ref, file, ctx)
				if err != nil || done {
					return err
				}
			}
		}
		_, isMap := ctx.element()
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Value == "$ref" && !isMap {
				continue
			}
			if err := b.walk(n.Content[i+1], file, ctx.child(k.Value), inRoot); err != nil {
				return err
			}
		}
	}
	return nil
}

// ref handles the $ref of mapping m. It reports done when m was replaced by
// the object it refers to (which has been walked already).
func (b *bundler) ref(m, ref *yaml.Node, file string, ctx refContext) (done bool, err error) {
	v := ref.Value
	if hasScheme(v) {
		return false, nil // remote: the browser resolves it
	}
	target, frag, _ := strings.Cut(v, "#")
	if frag, err = url.PathUnescape(frag); err != nil {
		return false, b.refError(file, ref, "$ref %q: invalid escape in the fragment: %v", v, err)
	}
	var targetFile string
	switch {
	case target == "" && file == b.rootFile:
		return false, nil // the root document's own $ref
	case target == "":
		targetFile = file
	default:
		if targetFile, err = b.resolve(file, target); err != nil {
			return false, b.refError(file, ref, "$ref %q: %w", v, err)
		}
	}
	if b.rootFile != "" && targetFile == b.rootFile {
		setRef(ref, "#"+frag) // back into the root document
		return false, nil
	}
	doc, err := b.load(targetFile)
	if err != nil {
		var se *transcode.Error
		if errors.As(err, &se) {
			return false, err // a problem inside the referenced file, at its own line
		}
		return false, b.refError(file, ref, "$ref %q: %w", v, err)
	}
	node, err := pointer(doc, frag)
	if err != nil {
		return false, b.refError(file, ref, "$ref %q: %s %w", v, targetFile, err)
	}
	key := targetFile + "#" + frag
	section := ctx.section(b.swagger2)
	if section == "" {
		return true, b.inlineRef(m, node, key, targetFile, ctx, file, ref)
	}
	if bundledRef, ok := b.targets[key]; ok {
		setRef(ref, bundledRef)
		return false, nil
	}
	name := b.name(section, targetFile, frag)
	bundledRef := "#/" + section + "/" + escapePointer(name)
	b.targets[key] = bundledRef
	setRef(ref, bundledRef)
	cp, err := b.copy(node, targetFile)
	if err != nil {
		return false, err
	}
	b.added = append(b.added, bundled{section: section, name: name, node: cp})
	return false, b.walk(cp, targetFile, ctx, false)
}

// inlineRef replaces m's content with a copy of node, keeping m's other
// keys (OpenAPI 3.1 allows a summary or description beside a $ref).
func (b *bundler) inlineRef(m, node *yaml.Node, key, targetFile string, ctx refContext, file string, ref *yaml.Node) error {
	for _, k := range b.inline {
		if k == key {
			return b.refError(file, ref, "$ref %q refers back to itself through %s: a %s cannot be bundled by reference, only copied",
				ref.Value, strings.Join(b.inline, " -> "), ctx)
		}
	}
	if node.Kind != yaml.MappingNode {
		return b.refError(file, ref, "$ref %q must point to a mapping (a %s), not %s", ref.Value, ctx, transcode.Article(transcode.YAMLKind(node)))
	}
	cp, err := b.copy(node, targetFile)
	if err != nil {
		return err
	}
	b.inline = append(b.inline, key)
	defer func() { b.inline = b.inline[:len(b.inline)-1] }()
	if err := b.walk(cp, targetFile, ctx, false); err != nil {
		return err
	}
	content := cp.Content
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "$ref" {
			continue
		}
		replaced := false
		for j := 0; j+1 < len(content); j += 2 {
			if content[j].Value == m.Content[i].Value {
				content[j+1], replaced = m.Content[i+1], true
			}
		}
		if !replaced {
			content = append(content, m.Content[i], m.Content[i+1])
		}
	}
	m.Content = content
	return nil
}

func setRef(ref *yaml.Node, v string) {
	ref.Value, ref.Tag, ref.Style = v, "!!str", 0
}

// resolve returns the path of a file $ref made in file: relative to file's
// directory, on Config.FS when it is set, else on the OS file system.
func (b *bundler) resolve(file, target string) (string, error) {
	if t, err := url.PathUnescape(target); err == nil {
		target = t
	}
	if b.fsys != nil {
		dir := "."
		if file != "" {
			dir = path.Dir(file)
		}
		p := path.Join(dir, target)
		if !fs.ValidPath(strings.TrimLeft(p, "/")) {
			return "", fmt.Errorf("%s is outside Config.FS", p)
		}
		return p, nil
	}
	if file == "" {
		return "", errors.New("a document given as bytes or an object has no directory to resolve a file $ref from: give its file path, or set Config.FS")
	}
	return filepath.Join(filepath.Dir(file), filepath.FromSlash(target)), nil
}

// load reads, parses and checks a referenced file, once.
func (b *bundler) load(file string) (*yaml.Node, error) {
	if doc, ok := b.docs[file]; ok {
		return doc, nil
	}
	data, err := b.readFile(b.fsys, file)
	if err != nil {
		return nil, err
	}
	b.files = append(b.files, file)
	b.read += len(data)
	root, err := transcode.ParseYAML(transcode.Raw{Source: file, File: file, Data: data})
	if err != nil {
		return nil, err
	}
	// Check it as it will be written: duplicate keys, numbers JSON cannot
	// hold, merges, with this file's name and lines.
	if err := transcode.CheckNode(root, file, len(data)); err != nil {
		return nil, err
	}
	b.docs[file] = root
	return root, nil
}

// pointer finds the node a JSON Pointer (RFC 6901) names in doc.
func pointer(doc *yaml.Node, frag string) (*yaml.Node, error) {
	n := transcode.ResolveAlias(doc)
	if frag == "" {
		return n, nil
	}
	if frag[0] != '/' {
		return nil, fmt.Errorf("has no anchor %q: a fragment must be a JSON Pointer such as #/components/schemas/Pet", frag)
	}
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n.Kind {
		case yaml.MappingNode:
			next := mappingValue(n, tok)
			if next == nil {
				return nil, fmt.Errorf("has no %q at #%s", tok, frag)
			}
			n = next
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil, fmt.Errorf("has no item %q at #%s", tok, frag)
			}
			n = transcode.ResolveAlias(n.Content[i])
		default:
			return nil, fmt.Errorf("has no %q at #%s: %s is a scalar", tok, frag, tok)
		}
	}
	return n, nil
}

// escapePointer escapes a name for use in a JSON Pointer.
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// copy returns a deep copy of n with its aliases expanded, so that the
// copy can be rewritten without touching the file it came from.
func (b *bundler) copy(n *yaml.Node, file string) (*yaml.Node, error) {
	n = transcode.ResolveAlias(n)
	if b.budget--; b.budget < 0 {
		return nil, b.refError(file, n, "the referenced part expands to too many nodes through aliases")
	}
	cp := *n
	cp.Anchor = ""
	if len(n.Content) > 0 {
		cp.Content = make([]*yaml.Node, len(n.Content))
		for i, c := range n.Content {
			cc, err := b.copy(c, file)
			if err != nil {
				return nil, err
			}
			cp.Content[i] = cc
		}
	}
	return &cp, nil
}

// addComponents appends the new entries to the root document, creating the
// sections it lacks at its end, in the order the entries were found.
func (b *bundler) addComponents() {
	for _, e := range b.added {
		parent := b.root
		parts := strings.Split(e.section, "/")
		for _, p := range parts {
			next := mappingValue(parent, p)
			if next == nil || next.Kind != yaml.MappingNode {
				next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
				parent = transcode.ResolveAlias(parent)
				parent.Content = append(parent.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: p}, next)
			}
			parent = next
		}
		parent.Content = append(parent.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.name}, e.node)
	}
}
