package suite

import (
	"slices"
	"strings"

	"github.com/callgrade/callgrade/internal/number"
	"github.com/callgrade/callgrade/value"
)

// merger layers the files' top levels, cases aside, key by key: a later
// file's key replaces an earlier one's, and an object merges into the
// object under the same key, except that a RULE replaces the RULE written
// for the same PATH before it whole, and that `tools` and `tools_file`
// replace each other. It remembers which file set each key, so that a
// problem found after merging names the file it is in.
type merger struct {
	file   string
	top    []value.Member // the merged top level, cases aside
	origin originNode     // which file set each key path
}

// originNode is a key path's place in the tree of the files that set
// keys: forgetting who set the keys under an object replaced is dropping
// a subtree, not a search through every key path.
type originNode struct {
	file string // the file that set this key path; "" when none did
	kids map[string]*originNode
}

func (n *originNode) kid(k string) *originNode {
	if c := n.kids[k]; c != nil {
		return c
	}
	if n.kids == nil {
		n.kids = map[string]*originNode{}
	}
	c := &originNode{}
	n.kids[k] = c
	return c
}

func newMerger() *merger { return &merger{} }

// add layers the top level of file, which its parser read, over what the
// earlier files gave.
func (m *merger) add(file string, src []value.Member) {
	m.file = file
	if set(src, "tools") {
		if !set(src, "tools_file") {
			m.top = slices.DeleteFunc(m.top, keyIs("tools_file"))
		}
	} else if set(src, "tools_file") {
		m.top = slices.DeleteFunc(m.top, keyIs("tools"))
	}
	m.top = m.mergeAt(m.top, src, &m.origin, "", 0)
}

// merged is the layered top level as one object.
func (m *merger) merged() value.Value {
	v, _ := value.ObjectOf(m.top...) // the keys are distinct: mergeAt keeps them so
	return v
}

// mergeAt merges src into dest, the object at the key path prefix whose
// origins are at, and returns dest, which it may change. Each key is
// found through an index of dest, so that merging objects of many keys
// costs time in proportion to them.
func (m *merger) mergeAt(dest, src []value.Member, at *originNode, prefix string, depth int) []value.Member {
	index := make(map[string]int, len(dest))
	for i := range dest {
		index[dest[i].Key] = i
	}
	for _, s := range src {
		k, v := s.Key, s.Value
		i, ok := index[k]
		if ok && v.Kind() == value.Null {
			// A key set to null counts as left out, in a later file as
			// in one: it keeps what an earlier file wrote.
			continue
		}
		if depth == 0 && k == "version" && ok && dest[i].Value.Kind() != value.Null && !versionOne(dest[i].Value) {
			continue // a file's version other than 1 is an error no later file undoes
		}
		key := k
		if depth > 0 {
			key = prefix + "\x00" + k
		}
		node := at.kid(k)
		if ok && v.Kind() == value.Object && dest[i].Value.Kind() == value.Object && !atomic(key, depth) {
			inner := m.mergeAt(slices.Clone(dest[i].Value.Members()), v.Members(), node, key, depth+1)
			dest[i].Value, _ = value.ObjectOf(inner...)
			continue
		}
		node.kids = nil // forget who set the keys under what is replaced
		if ok {
			dest[i].Value = v
		} else {
			index[k] = len(dest)
			dest = append(dest, value.Member{Key: k, Value: v})
		}
		node.file = m.file
	}
	return dest
}

// set reports whether members holds key with a value other than null.
func set(members []value.Member, key string) bool {
	i := slices.IndexFunc(members, keyIs(key))
	return i >= 0 && members[i].Value.Kind() != value.Null
}

func keyIs(key string) func(value.Member) bool {
	return func(m value.Member) bool { return m.Key == key }
}

// versionOne reports whether v, a file's version, is 1.
func versionOne(v value.Value) bool {
	return v.Kind() == value.Number && number.Compare(v.Str(), "1") == 0
}

// atomic reports whether the key at depth is a RULE, which replaces rather
// than merges: defaults.rules.PATH and rulesets.NAME.PATH.
func atomic(key string, depth int) bool {
	return depth == 2 && (strings.HasPrefix(key, "defaults\x00rules\x00") || strings.HasPrefix(key, "rulesets\x00"))
}

// fileOf returns the file that set the key path, or the nearest parent of
// it that a file set; the last file when none did.
func (m *merger) fileOf(key ...string) string {
	file := m.file
	n := &m.origin
	for _, k := range key {
		if n = n.kids[k]; n == nil {
			break
		}
		if n.file != "" {
			file = n.file
		}
	}
	return file
}
