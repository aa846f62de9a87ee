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
	top    []value.Member    // the merged top level, cases aside
	origin map[string]string // key path, segments joined by "\x00" -> file
}

func newMerger() *merger { return &merger{origin: map[string]string{}} }

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
	m.top = m.mergeAt(m.top, src, "", 0)
}

// merged is the layered top level as one object.
func (m *merger) merged() value.Value {
	v, _ := value.ObjectOf(m.top...) // the keys are distinct: mergeAt keeps them so
	return v
}

// mergeAt merges src into dest, which it may change and returns.
func (m *merger) mergeAt(dest, src []value.Member, prefix string, depth int) []value.Member {
	for _, s := range src {
		k, v := s.Key, s.Value
		i := slices.IndexFunc(dest, keyIs(k))
		if i >= 0 && v.Kind() == value.Null {
			// A key set to null counts as left out, in a later file as
			// in one: it keeps what an earlier file wrote.
			continue
		}
		if depth == 0 && k == "version" && i >= 0 && dest[i].Value.Kind() != value.Null && !versionOne(dest[i].Value) {
			continue // a file's version other than 1 is an error no later file undoes
		}
		key := k
		if depth > 0 {
			key = prefix + "\x00" + k
		}
		if i >= 0 && v.Kind() == value.Object && dest[i].Value.Kind() == value.Object && !atomic(key, depth) {
			inner := m.mergeAt(slices.Clone(dest[i].Value.Members()), v.Members(), key, depth+1)
			dest[i].Value, _ = value.ObjectOf(inner...)
			continue
		}
		if i >= 0 && dest[i].Value.Kind() == value.Object { // forget who set the keys under the object replaced
			for o := range m.origin {
				if strings.HasPrefix(o, key+"\x00") {
					delete(m.origin, o)
				}
			}
		}
		if i >= 0 {
			dest[i].Value = v
		} else {
			dest = append(dest, value.Member{Key: k, Value: v})
		}
		m.origin[key] = m.file
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
// it that a file set.
func (m *merger) fileOf(key ...string) string {
	for n := len(key); n > 0; n-- {
		if f, ok := m.origin[strings.Join(key[:n], "\x00")]; ok {
			return f
		}
	}
	return m.file
}
