package filter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
)

// TestFilterSyntaxErrorQuotesTheLine: a filter file that does not parse is reported by
// file:line:column with its line quoted and a caret under the column.
func TestFilterSyntaxErrorQuotesTheLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.lua")
	src := "return {filter = function(packets)\n  local s = 0\n\tfor _, p in ipairs(packets) do s = s +* p[1] end\n  return {s}\nend}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := scripttest.Run(t, `print(select(2, pcall(filter.load, "`+path+`")))`)
	want := "filter " + path + ":3:40: syntax error near '*'\n" +
		"  3 | \tfor _, p in ipairs(packets) do s = s +* p[1] end\n" +
		"    | \t                                      ^\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("got\n%s\nwant it to end with\n%s", out, want)
	}
}
