package bundle

import (
	"fmt"
	"net/url"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/openapi-viewer/viewer/internal/transcode"
)

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

// frag returns the JSON Pointer of the object a splice copied.
func (s *splice) frag() string {
	_, frag, _ := strings.Cut(s.ref, "#")
	if f, err := url.PathUnescape(frag); err == nil {
		return f
	}
	return frag
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
