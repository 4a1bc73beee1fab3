package tracelang

import (
	"strings"
	"testing"
)

func parseCheck(src string) (*Program, *Info, error) {
	prog, err := Parse("stdin", src)
	if err != nil {
		return nil, nil, err
	}
	info, err := Check(prog)
	return prog, info, err
}

// TestErrorsPointAtTheText lists mistakes with the whole message each gives: the place,
// what is wrong, the line and the caret under the column.
func TestErrorsPointAtTheText(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"MPI_Send:entry { @[arg9x] = count() }",
			"stdin:1:20: unknown builtin 'arg9x'\nMPI_Send:entry { @[arg9x] = count() }\n                   ^"},
		{"MPI_Send:entry { @[arg9] = count() }",
			"stdin:1:20: 'arg9': only arg0..arg7 (registers r3..r10) hold arguments\nMPI_Send:entry { @[arg9] = count() }\n                   ^"},
		{"MPI_Send:exit { @ = sum(arg2) }",
			"stdin:1:25: 'arg2' is only defined at entry probes, and MPI_Send:exit is not one\nMPI_Send:exit { @ = sum(arg2) }\n                        ^"},
		{"BEGIN { printf(\"%d\\n\", rank) }",
			"stdin:1:24: 'rank' is a rank's value: BEGIN runs at the front-end\nBEGIN { printf(\"%d\\n\", rank) }\n                       ^"},
		{"MPI_Send:entry\n  { @x = count(); @x = sum(arg1) }",
			"stdin:2:19: @x is count() at 2:5 and sum() here: a map keeps one kind of value\n  { @x = count(); @x = sum(arg1) }\n                  ^"},
		{"MPI_Send:entry { @x = count() ",
			"stdin:1:31: expected '}' to close the block opened at 1:1, found the end of the program\nMPI_Send:entry { @x = count() \n                              ^"},
		{"MPI_Send:entry { @x = count() @y = count() }",
			"stdin:1:31: expected ';' between statements, found '@y'\nMPI_Send:entry { @x = count() @y = count() }\n                              ^"},
		{"MPI_Send:enter { }",
			"stdin:1:1: unknown probe 'MPI_Send:enter': want FUNC:entry, FUNC:exit, file.c:LINE, BEGIN, END, interval:ms:N or profile:hz:N\nMPI_Send:enter { }\n^"},
		{"END { print(@nope) }",
			"stdin:1:13: @nope is not an aggregated map of this program\nEND { print(@nope) }\n            ^"},
		{"MPI_Recv:entry /arg1 > / { @ = count() }",
			"stdin:1:24: expected an expression, found '/'\nMPI_Recv:entry /arg1 > / { @ = count() }\n                       ^"},
		{"MPI_Recv:entry { @[func] = lhist(arg1, 0, 10, 3) }",
			"stdin:1:28: lhist(x, 0, 10, 3): want min < max, step > 0 dividing max - min, at most 1000 buckets\nMPI_Recv:entry { @[func] = lhist(arg1, 0, 10, 3) }\n                           ^"},
		{"MPI_Recv:entry { @ = count(); print(@) }",
			"stdin:1:31: print() runs in BEGIN, END and interval blocks only: maps are collected from the ranks there\nMPI_Recv:entry { @ = count(); print(@) }\n                              ^"},
		{"MPI_Recv:entry { printf(\"%s\\n\", arg0) }",
			"stdin:1:25: printf: %s is not a conversion printf offers here (d i u x X c)\nMPI_Recv:entry { printf(\"%s\\n\", arg0) }\n                        ^"},
		{"MPI_Recv:entry { @ = sum(ustack) }",
			"stdin:1:26: 'ustack' is the call stack: it can only be a map key\nMPI_Recv:entry { @ = sum(ustack) }\n                         ^"},
		{"MPI_Recv:entry { @[ustack(40)] = count() }",
			"stdin:1:20: ustack(N) takes the number of frames, an integer from 1 to 32\nMPI_Recv:entry { @[ustack(40)] = count() }\n                   ^"},
		{"MPI_Recv:entry { @[ustack, ustack(2)] = count() }",
			"stdin:1:28: @: one call stack per key\nMPI_Recv:entry { @[ustack, ustack(2)] = count() }\n                           ^"},
		{"profile:hz:99 { @[rank] = count() }",
			"stdin:1:17: profile:hz:99 counts samples only: @name = count() or @name[func] = count()\nprofile:hz:99 { @[rank] = count() }\n                ^"},
		{"profile:hz:99 { @[func] = count() }\nMPI_Send:entry { @[func] = count() }",
			"stdin:2:18: @ counts profile samples elsewhere and probe events here: give each its own map\nMPI_Send:entry { @[func] = count() }\n                 ^"},
		{"interval:ms:100 { @ = count() }",
			"stdin:1:19: interval:ms:100 runs at the front-end, where no rank's values exist: only printf, print, clear and exit\ninterval:ms:100 { @ = count() }\n                  ^"},
		{"interval:hz:100 { }",
			"stdin:1:1: interval probes are interval:s:N, interval:ms:N or interval:us:N, not interval:hz\ninterval:hz:100 { }\n^"},
		{"MPI_Send:entry { @m = max(arg1) } interval:us:50 { print(@m); clear(@m) }",
			"stdin:1:69: @m is max(), which the ranks keep over the whole run: an interval cannot clear it\nMPI_Send:entry { @m = max(arg1) } interval:us:50 { print(@m); clear(@m) }\n                                                                    ^"},
		{"profile:hz:99 { @[func] = count() } interval:ms:1 { print(@) }",
			"stdin:1:59: @ counts profile samples, read when the job ends: print it in END\nprofile:hz:99 { @[func] = count() } interval:ms:1 { print(@) }\n                                                          ^"},
		{"MPI_Recv:entry { @[func + 1] = count() }",
			"stdin:1:20: 'func' names the probe: it can only be a map key\nMPI_Recv:entry { @[func + 1] = count() }\n                   ^"},
		{"",
			"stdin:1:1: no probes: a program is PROBE[, PROBE...] [/PREDICATE/] { STATEMENTS }\n\n^"},
	} {
		_, _, err := parseCheck(tc.src)
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.src, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, err.Error(), tc.want)
		}
	}
}

// TestParseReadsTheReadmeExamples parses the README's page of examples into the maps
// they declare.
func TestParseReadsTheReadmeExamples(t *testing.T) {
	for _, tc := range []struct{ src, maps string }{
		{"MPI_*:entry { @[func] = count(); }", "@=count/1"},
		{"MPI_Send:entry /rank % 2 == 0 && arg1 > 1024/ { @bytes[rank] = hist(arg1 * 4) }", "@bytes=hist/1"},
		{"MPI_Wait:entry { @start = nsecs } MPI_Wait:exit { @ns[rank] = sum(nsecs - @start); @dist = hist(nsecs - @start) }",
			"@start=/0 @ns=sum/1 @dist=hist/0"},
		{"lines.c:20, lines.c:22 { @[probe] = count() } END { print(@); clear(@); exit() }", "@=count/1"},
		{"profile:hz:99 { @[func] = count() }", "@=count/1"},
		{"MPI_*:entry { @[func] = count() } interval:ms:1 { printf(\"--\\n\"); print(@); clear(@) }", "@=count/1"},
		{"MPI_Wait:exit { @wait[ustack] = stats(nsecs); @d[ustack(3), rank] = count() }", "@wait=stats/1 @d=count/2"},
		{"MPI_Recv:entry { $n = arg1; @s[func, rank] = stats($n); @l = lhist($n, 0, 100, 10); printf(\"%d %lld\\n\", rank, $n) }",
			"@s=stats/2 @l=lhist/0"},
	} {
		_, info, err := parseCheck(tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		var got []string
		for _, m := range info.Maps {
			got = append(got, "@"+m.Name+"="+m.Agg+"/"+string(rune('0'+m.Keys)))
		}
		if strings.Join(got, " ") != tc.maps {
			t.Errorf("%q: maps %q, want %q", tc.src, strings.Join(got, " "), tc.maps)
		}
	}
}
