package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/openapi-viewer/viewer/internal/transcode"
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
	targetFile, frag, own, err := b.target(file, ref)
	if err != nil || own {
		return refLeft, err
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
		if strings.HasPrefix(v, "#/") {
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

// target returns the file and the JSON Pointer that the $ref ref, made in
// file, names. own is true for a $ref into the root document, which is
// left as it is or rewritten to point into it (a $ref from another file
// back to the root file), and needs nothing copied.
func (b *bundler) target(file string, ref *yaml.Node) (targetFile, frag string, own bool, err error) {
	target, frag, _ := strings.Cut(ref.Value, "#")
	if frag, err = url.PathUnescape(frag); err != nil {
		return "", "", false, b.refError(file, ref, "$ref %q: invalid escape in the fragment: %v", ref.Value, err)
	}
	switch {
	case target == "" && b.isRoot(file):
		return "", frag, true, nil // the root document's own $ref
	case target == "":
		return file, frag, false, nil
	}
	if targetFile, err = b.resolve(file, target); err != nil {
		return "", "", false, b.refError(file, ref, "$ref %q: %w", ref.Value, err)
	}
	if targetFile != "" && b.isRoot(targetFile) {
		setRef(ref, "#"+frag) // back into the root document
		return targetFile, frag, true, nil
	}
	return targetFile, frag, false, nil
}

func setRef(ref *yaml.Node, v string) {
	ref.Value, ref.Tag, ref.Style = v, "!!str", 0
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
