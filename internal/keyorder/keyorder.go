// Package keyorder lists the mapping keys of a YAML or JSON document in
// document order, for tests that compare two documents' key order (the
// viewer's own and, in bench/, a peer library's).
package keyorder

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Paths returns every mapping key of doc as a path ("/paths/~1pets/get"
// style, without escaping: "/" joins the keys, "-" stands for a sequence
// item), in document order. Aliases are followed.
func Paths(doc []byte) ([]string, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(doc, &n); err != nil {
		return nil, fmt.Errorf("keyorder: %w", err)
	}
	var out []string
	var walk func(n *yaml.Node, prefix string)
	walk = func(n *yaml.Node, prefix string) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, prefix)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := prefix + "/" + n.Content[i].Value
				out = append(out, p)
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, prefix+"/-")
			}
		case yaml.AliasNode:
			walk(n.Alias, prefix)
		}
	}
	walk(&n, "")
	return out, nil
}
