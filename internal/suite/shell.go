package suite

import "errors"

// splitCommand splits a command line into words as a POSIX shell would,
// without expanding anything: blanks separate words; single quotes keep
// everything up to the next single quote; double quotes keep everything up
// to the next unescaped double quote, where a backslash escapes only
// $ ` " \ and a newline; elsewhere a backslash escapes any character.
func splitCommand(s string) ([]string, error) {
	var (
		words []string
		word  []byte
		in    bool // inside a word, even an empty one such as ''
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if in {
				words = append(words, string(word))
				word, in = word[:0], false
			}
		case c == '\\':
			in = true
			if i+1 >= len(s) {
				return nil, errors.New("the command ends with a lone backslash")
			}
			i++
			if s[i] != '\n' { // backslash-newline joins lines
				word = append(word, s[i])
			}
		case c == '\'':
			in = true
			j := i + 1
			for j < len(s) && s[j] != '\'' {
				j++
			}
			if j >= len(s) {
				return nil, errors.New("the command has an unterminated single quote")
			}
			word = append(word, s[i+1:j]...)
			i = j
		case c == '"':
			in = true
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					switch s[j+1] {
					case '$', '`', '"', '\\':
						j++
					case '\n':
						j++
						continue
					}
				}
				word = append(word, s[j])
			}
			if j >= len(s) {
				return nil, errors.New("the command has an unterminated double quote")
			}
			i = j
		default:
			in = true
			word = append(word, c)
		}
	}
	if in {
		words = append(words, string(word))
	}
	return words, nil
}
