package filter

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yuin/gopher-lua/parse"
)

// syntaxError names a filter file's syntax error by file:line:column and quotes the line
// with a caret under the column, as a compiler does: gopher-lua's own text
// ("F line:3(column:41) near '*':   syntax error") names the file twice in a filter's error
// and shows none of the code.
func syntaxError(origin string, src []byte, err error) error {
	var perr *parse.Error
	if !errors.As(err, &perr) {
		return fmt.Errorf("filter %s: %w", origin, err)
	}
	lines := strings.Split(string(src), "\n")
	if perr.Pos.Line < 1 || perr.Pos.Line > len(lines) {
		return fmt.Errorf("filter %s: %s at the end of the file", origin, perr.Message)
	}
	text := strings.TrimRight(lines[perr.Pos.Line-1], "\r")
	col := max(perr.Pos.Column, 1)
	// The caret lines up under the column in the quoted text, tabs kept as tabs.
	pad := []rune{}
	for i, r := range []rune(text) {
		if i >= col-1 {
			break
		}
		if r == '\t' {
			pad = append(pad, '\t')
		} else {
			pad = append(pad, ' ')
		}
	}
	num := fmt.Sprint(perr.Pos.Line)
	return fmt.Errorf("filter %s:%d:%d: %s near '%s'\n  %s | %s\n  %s | %s^",
		origin, perr.Pos.Line, col, perr.Message, perr.Token, num, text, strings.Repeat(" ", len(num)), string(pad))
}
