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
	"unicode/utf8"

	"github.com/openapi-viewer/viewer/internal/transcode"
	"go.yaml.in/yaml/v3"
)

// A bundler turns a document whose $refs point into other files into one
// document. A $ref where OpenAPI has a components section for the object
// (definitions, parameters or responses in Swagger 2.0) makes the object an
// entry there, named after its file or its own key, and the $ref then
// points there; any other $ref (a path item, info, a whole section or map,
// a list) is replaced by a copy of what it points to. $refs with a scheme
// (http:, https:, ...) are left as they are, and so are $refs inside
// literal values (examples, defaults, x- extensions).
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
	homes   map[*yaml.Node]string // the root's component entries that are a $ref: "file#pointer" copied there
	names   map[string]map[string]bool
	added   []bundled             // new component entries, in the order found
	visited map[*yaml.Node]bool   // root nodes already walked (aliases)
	fileOf  map[*yaml.Node]string // nodes copied in place of a $ref: the file they were read from
	origins map[*yaml.Node]*splice
	inline  []string // "file#pointer" of the objects being copied in place, for cycles
	pending []rootRef
	// wholeRoot holds the files the root document is a $ref to, whole: a
	// "#/..." $ref in them is the root's own.
	wholeRoot map[string]bool
	budget    int // nodes still allowed to be copied or walked
	read      int // bytes read from referenced files
}

// bundled is one new components entry.
type bundled struct {
	section, name string
	node          *yaml.Node
}

// A splice is a $ref replaced by a copy of what it points to: where the
// $ref was and the file the copy was read from, for errors about the copy.
type splice struct {
	ref, refFile string
	refLine      int
	target       string
	container    bool // the node that held the $ref, not one of the copied values
}

// A rootRef is a "#/..." $ref in another file that names nothing in that
// file, left to point into the bundled document (as multi-file-swagger's
// own resolver leaves it); it must name something there.
type rootRef struct {
	file string
	ref  *yaml.Node
	why  error
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

// Result is what Bundle read, and where the parts of the bundled document
// came from.
type Result struct {
	Files []string // the files read, the root's own first when it is a file
	Size  int      // their total size in bytes
	b     *bundler
}

// Bundle rewrites root, in place, into one document, and returns the files
// it read and their total size. It reads the files the $refs name with
// readFile.
func Bundle(root *yaml.Node, rootFile, rootSource string, fsys fs.FS, readFile ReadFunc, size int) (*Result, error) {
	b := &bundler{
		fsys: fsys, readFile: readFile, rootFile: rootFile, rootSource: rootSource, root: root,
		docs: map[string]*yaml.Node{}, targets: map[string]string{}, names: map[string]map[string]bool{},
		homes: map[*yaml.Node]string{}, visited: map[*yaml.Node]bool{}, fileOf: map[*yaml.Node]string{},
		origins: map[*yaml.Node]*splice{}, wholeRoot: map[string]bool{}, budget: 64*size + 1<<20,
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
	if err := b.expandSections(); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "swagger" {
			b.swagger2 = true
		}
	}
	b.reserveNames()
	if err := b.findHomes(); err != nil {
		return nil, err
	}
	if err := b.walk(root, b.rootFile, ctxRoot, true); err != nil {
		return nil, err
	}
	b.addComponents()
	if err := b.checkRootRefs(); err != nil {
		return nil, err
	}
	return &Result{Files: b.files, Size: size + b.read, b: b}, nil
}

// expandSections replaces the $refs of the document's outline first: the
// root's own, its sections' (info, paths, components, definitions, ...) and
// the components sections', so that the names of their entries are known
// before any other $ref is bundled.
func (b *bundler) expandSections() error {
	if err := b.expand(b.root, b.rootFile, ctxRoot); err != nil {
		return err
	}
	for i := 0; i+1 < len(b.root.Content); i += 2 {
		key, v := b.root.Content[i].Value, transcode.ResolveAlias(b.root.Content[i+1])
		ctx := ctxRoot.child(key)
		if err := b.expand(v, b.fileFor(v, b.rootFile), ctx); err != nil {
			return err
		}
		if ctx != ctxComponents || v.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			sec := transcode.ResolveAlias(v.Content[j+1])
			if err := b.expand(sec, b.fileFor(sec, b.fileFor(v, b.rootFile)), ctx.child(v.Content[j].Value)); err != nil {
				return err
			}
		}
	}
	return nil
}

// expand replaces n's $ref (and that of what it points to, and so on) by
// a copy of what it points to; it walks no further.
func (b *bundler) expand(n *yaml.Node, file string, ctx refContext) error {
	pushed, err := b.resolveRefs(n, file, ctx)
	b.inline = b.inline[:len(b.inline)-pushed]
	return err
}

// isRoot reports whether file is the root document's (a document given as
// bytes has the file "").
func (b *bundler) isRoot(file string) bool {
	return file == b.rootFile || b.wholeRoot[file]
}

// fileFor returns the file node n was read from: its own when it was
// copied in place of a $ref, else def (its parent's).
func (b *bundler) fileFor(n *yaml.Node, def string) string {
	if f, ok := b.fileOf[n]; ok {
		return f
	}
	return def
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

// findHomes makes each entry of the root's components sections that is
// only a $ref to another file the home of what it points to: the object is
// copied there, under the name the author gave it, and every other $ref to
// the same file and pointer points there. An entry read from a file (a
// section given as a $ref) is also what a $ref to its place in that file
// means.
func (b *bundler) findHomes() error {
	sections := map[string]*yaml.Node{}
	if b.swagger2 {
		for _, sec := range []string{"definitions", "parameters", "responses"} {
			sections[sec] = mappingValue(b.root, sec)
		}
	} else if comps := mappingValue(b.root, "components"); comps != nil {
		for _, sec := range componentSections() {
			if sec.kind != ctxPathItem {
				sections["components/"+sec.name] = mappingValue(comps, sec.name)
			}
		}
	}
	for _, section := range []string{"definitions", "parameters", "responses", "components/schemas", "components/responses",
		"components/parameters", "components/examples", "components/requestBodies", "components/headers",
		"components/securitySchemes", "components/links", "components/callbacks"} {
		m := sections[section]
		if m == nil || m.Kind != yaml.MappingNode {
			continue
		}
		secFile := b.fileFor(m, b.rootFile)
		for i := 0; i+1 < len(m.Content); i += 2 {
			name, v := m.Content[i].Value, transcode.ResolveAlias(m.Content[i+1])
			here := "#/" + section + "/" + escapePointer(name)
			file := b.fileFor(v, secFile)
			if sp := b.origins[v]; sp != nil && !sp.container {
				// An entry of a section read from a file: a $ref to its
				// place there means this entry.
				if key := sp.target + "#" + sp.frag() + "/" + escapePointer(name); b.targets[key] == "" {
					b.targets[key] = here
				}
			}
			if v.Kind != yaml.MappingNode || len(v.Content) != 2 || v.Content[0].Value != "$ref" {
				continue
			}
			ref := transcode.ResolveAlias(v.Content[1])
			if ref.Kind != yaml.ScalarNode || hasScheme(ref.Value) {
				continue
			}
			target, frag, _ := strings.Cut(ref.Value, "#")
			if target == "" && b.isRoot(file) {
				continue // the root document's own $ref
			}
			targetFile := file
			if target != "" {
				var err error
				if targetFile, err = b.resolve(file, target); err != nil {
					return b.refError(file, ref, "$ref %q: %w", ref.Value, err)
				}
			}
			if f, err := url.PathUnescape(frag); err == nil {
				frag = f
			}
			if b.isRoot(targetFile) {
				continue
			}
			key := targetFile + "#" + frag
			if _, taken := b.targets[key]; taken {
				continue // a second entry for the same object: it will point to the first
			}
			b.targets[key] = here
			b.homes[v] = key
		}
	}
	return nil
}

// frag returns the JSON Pointer of the object a splice copied.
func (s *splice) frag() string {
	_, frag, _ := strings.Cut(s.ref, "#")
	if f, err := url.PathUnescape(frag); err == nil {
		return f
	}
	return frag
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
	pushed, err := b.resolveRefs(n, file, ctx)
	defer func() { b.inline = b.inline[:len(b.inline)-pushed] }()
	if err != nil {
		return err
	}
	switch n.Kind {
	case yaml.SequenceNode:
		el, ok := ctx.element()
		if !ok && (ctx == ctxSchema || ctx == ctxOther) { // JSON Schema draft 4 "items": [...]; servers, tags, ...
			el, ok = ctx, true
		}
		if !ok {
			return nil
		}
		for _, item := range n.Content {
			if err := b.walk(item, b.fileFor(item, file), el, inRoot); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "$ref" && transcode.ResolveAlias(v).Kind == yaml.ScalarNode {
				continue // a $ref left in place
			}
			if err := b.walk(v, b.fileFor(v, file), ctx.child(k.Value), inRoot); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolveRefs handles the $ref of n, a mapping in file, and then that of
// what replaced it, until n holds none to replace. It returns how many
// objects it pushed on b.inline, which the caller pops once it has walked
// n's content.
func (b *bundler) resolveRefs(n *yaml.Node, file string, ctx refContext) (pushed int, err error) {
	for ctx != ctxLiteral && n.Kind == yaml.MappingNode {
		ref := mappingValue(n, "$ref")
		if ref == nil || ref.Kind != yaml.ScalarNode {
			return pushed, nil
		}
		done, err := b.ref(n, ref, b.fileFor(ref, file), ctx)
		switch {
		case err != nil:
			return pushed, err
		case done == refSplicedPushed:
			pushed++
		case done == refLeft:
			return pushed, nil
		}
	}
	return pushed, nil
}

// What ref did with a $ref.
const (
	refLeft          = iota // rewritten to point into the bundled document, or left as it is
	refSpliced              // replaced by a copy of what it points to
	refSplicedPushed        // the same, the object pushed on b.inline
)

// ref handles the $ref of mapping m, which is in file, and says what it
// did (refLeft, refSpliced or refSplicedPushed).
func (b *bundler) ref(m, ref *yaml.Node, file string, ctx refContext) (done int, err error) {
	v := ref.Value
	if hasScheme(v) {
		return refLeft, nil // remote: the browser resolves it
	}
	target, frag, _ := strings.Cut(v, "#")
	if frag, err = url.PathUnescape(frag); err != nil {
		return refLeft, b.refError(file, ref, "$ref %q: invalid escape in the fragment: %v", v, err)
	}
	var targetFile string
	switch {
	case target == "" && b.isRoot(file):
		return refLeft, nil // the root document's own $ref
	case target == "":
		targetFile = file
	default:
		if targetFile, err = b.resolve(file, target); err != nil {
			return refLeft, b.refError(file, ref, "$ref %q: %w", v, err)
		}
	}
	if targetFile != "" && b.isRoot(targetFile) {
		setRef(ref, "#"+frag) // back into the root document
		return refLeft, nil
	}
	key := targetFile + "#" + frag
	section := ctx.section(b.swagger2)
	home := b.homes[m] == key
	if section != "" && !home {
		if bundledRef, ok := b.targets[key]; ok {
			setRef(ref, bundledRef)
			return refLeft, nil
		}
	}
	doc, err := b.load(targetFile)
	if err != nil {
		var se *transcode.Error
		if errors.As(err, &se) {
			return refLeft, err // a problem inside the referenced file, at its own line
		}
		return refLeft, b.refError(file, ref, "$ref %q: %w", v, err)
	}
	node, err := pointer(doc, frag)
	if err != nil {
		if target == "" && strings.HasPrefix(frag, "/") {
			// "#/definitions/User" in a file that has none: the root
			// document's, checked once it is bundled.
			b.pending = append(b.pending, rootRef{file: file, ref: ref, why: fmt.Errorf("%s %w", targetFile, err)})
			return refLeft, nil
		}
		return refLeft, b.refError(file, ref, "$ref %q: %s %w", v, targetFile, err)
	}
	if home {
		delete(b.homes, m)
		return refSpliced, b.splice(m, ref, node, targetFile, ctx, file)
	}
	if section == "" {
		for _, k := range b.inline {
			if k == key {
				return refLeft, b.refError(file, ref, "$ref %q refers back to itself through %s: %s cannot be bundled by reference, only copied",
					v, strings.Join(b.inline, " -> "), ctx.describe())
			}
		}
		b.inline = append(b.inline, key)
		return refSplicedPushed, b.splice(m, ref, node, targetFile, ctx, file)
	}
	name := b.name(section, targetFile, frag)
	bundledRef := "#/" + section + "/" + escapePointer(name)
	b.targets[key] = bundledRef
	setRef(ref, bundledRef)
	cp, err := b.copy(node, targetFile)
	if err != nil {
		return refLeft, err
	}
	b.added = append(b.added, bundled{section: section, name: name, node: cp})
	return refLeft, b.walk(cp, targetFile, ctx, false)
}

// splice replaces m's content with a copy of node, read from targetFile,
// keeping m's other keys (OpenAPI 3.1 allows a summary or description
// beside a $ref). What is expected at m's place decides the kinds allowed:
// a mapping for an object or a map, a list for a list.
func (b *bundler) splice(m, ref, node *yaml.Node, targetFile string, ctx refContext, file string) error {
	want := yaml.MappingNode
	if strings.HasPrefix(string(ctx), "list:") {
		want = yaml.SequenceNode
	}
	if ctx != ctxOther && node.Kind != want {
		return b.refError(file, ref, "$ref %q must point to %s (%s), not %s", ref.Value,
			map[yaml.Kind]string{yaml.MappingNode: "a mapping", yaml.SequenceNode: "a list"}[want], ctx.describe(), transcode.Article(transcode.YAMLKind(node)))
	}
	siblings := len(m.Content) > 2
	if node.Kind != yaml.MappingNode && siblings {
		return b.refError(file, ref, "$ref %q points to %s, which the keys beside the $ref cannot be added to", ref.Value, transcode.Article(transcode.YAMLKind(node)))
	}
	cp, err := b.copy(node, targetFile)
	if err != nil {
		return err
	}
	sp := &splice{ref: ref.Value, refFile: file, refLine: ref.Line, target: targetFile}
	if m == b.root && sp.frag() == "" {
		b.wholeRoot[targetFile] = true // the root document is that file
	}
	if _, ok := b.origins[m]; !ok {
		b.origins[m] = &splice{ref: ref.Value, refFile: file, refLine: ref.Line, target: targetFile, container: true}
	}
	copied := cp.Content
	if cp.Kind == yaml.MappingNode {
		for i := 1; i < len(copied); i += 2 {
			b.fileOf[copied[i]], b.origins[copied[i]] = targetFile, sp
		}
	} else {
		for _, c := range copied {
			b.fileOf[c], b.origins[c] = targetFile, sp
		}
	}
	if cp.Kind != yaml.MappingNode {
		m.Kind, m.Tag, m.Value, m.Style, m.Content = cp.Kind, cp.Tag, cp.Value, cp.Style, copied
		return nil
	}
	content := copied
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "$ref" && m.Content[i+1] == ref {
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

// checkRootRefs checks that each "#/..." $ref left to point into the
// bundled document names something there.
func (b *bundler) checkRootRefs() error {
	for _, r := range b.pending {
		_, frag, _ := strings.Cut(r.ref.Value, "#")
		if f, err := url.PathUnescape(frag); err == nil {
			frag = f
		}
		if _, err := pointer(b.root, frag); err != nil {
			return b.refError(r.file, r.ref, "$ref %q: %v, and the bundled document %v", r.ref.Value, r.why, err)
		}
	}
	return nil
}

// Locate rewrites e, a problem found at node n of the bundled document, to
// name the $ref that brought n there and the file n was read from: it is a
// transcode.Locator.
func (r *Result) Locate(n *yaml.Node, e *transcode.Error) *transcode.Error {
	sp := r.b.origins[n]
	if sp == nil {
		return e
	}
	refFile := sp.refFile
	if refFile == "" {
		refFile = r.b.rootSource
	}
	if sp.container {
		return &transcode.Error{Source: refFile, Line: sp.refLine, Err: fmt.Errorf("$ref %q (%s): %w", sp.ref, sp.target, e.Err)}
	}
	return &transcode.Error{Source: refFile, Line: sp.refLine, Err: fmt.Errorf("$ref %q: %s:%d: %w", sp.ref, sp.target, n.Line, e.Err)}
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
	if isTextFile(file) {
		// Markdown or plain text (description: {$ref: ./intro.md}): the
		// file's text is the value.
		data = transcode.TrimBOM(data)
		if !utf8.Valid(data) {
			return nil, &transcode.Error{Source: file, Err: errors.New("a text file a $ref names must be UTF-8")}
		}
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: string(data), Line: 1, Column: 1}
		b.docs[file] = n
		return n, nil
	}
	root, err := transcode.ParseYAMLValue(transcode.Raw{Source: file, File: file, Data: data})
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

// isTextFile reports whether a $ref's file is text to take as a string
// (Markdown, plain text, HTML) rather than YAML or JSON to parse.
func isTextFile(name string) bool {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(name, "\\", "/"))) {
	case ".md", ".markdown", ".txt", ".html", ".htm":
		return true
	}
	return false
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
