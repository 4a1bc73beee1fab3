package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"io"

	"github.com/dpclsh/dpclsh/script/fileout"
	lua "github.com/yuin/gopher-lua"
)

// Files a script produces (traces, tables) go through dpcl.write_file rather than
// io.open: gopher-lua's io creates files 0600, and a script that ignores what f:write
// returns reports a full disk as success and leaves a truncated file behind.

var dpclFileFuncs = []script.Function{
	{Name: "write_file", Doc: `dpcl.write_file(path, data) -> bytes
Writes data (a string, or an array of strings and numbers written one after another) to
path and returns how many bytes it wrote. A file is written whole or not at all: the data
goes to a temporary file beside it, is synced, and replaces the file by a rename. A new
file is 0644 (less the umask); a replaced file keeps its mode; a symbolic link stays and
its file is replaced. Devices (/dev/null) and open descriptors (/dev/stdout, /dev/fd/N)
are written in place. Any failure raises "cannot write PATH: REASON". In a sharded run
(dpclsh --shards) process 0 alone writes; every process returns the bytes and raises its
error.`, Fn: dpclWriteFile},
	{Name: "check_write", Doc: `dpcl.check_write(path) -> path
Raises "cannot write PATH: REASON" now when path cannot be written (a missing directory, a
directory, no permission), so a script fails before a long run rather than after it. It
leaves no file behind and the target untouched.`, Fn: dpclCheckWrite},
}

func dpclWriteFile(L *lua.LState) int {
	path := L.CheckString(1)
	parts := fileParts(L, 2)
	var total int64
	err := script.WriteFile(script.SessionOf(L), path, fileout.Public, func(w io.Writer) error {
		for _, p := range parts {
			n, err := io.WriteString(w, p)
			total += int64(n)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(lua.LNumber(total))
	return 1
}

// fileParts reads argument n of dpcl.write_file: a string or number, or an array of them.
func fileParts(L *lua.LState, n int) []string {
	switch v := L.Get(n).(type) {
	case lua.LString, lua.LNumber:
		return []string{lua.LVAsString(v)}
	case *lua.LTable:
		parts := make([]string, 0, v.Len())
		for i := 1; i <= v.Len(); i++ {
			e := v.RawGetInt(i)
			switch e.(type) {
			case lua.LString, lua.LNumber:
			default:
				L.ArgError(n, fmt.Sprintf("data[%d] must be a string or a number, got %s", i, script.Describe(e)))
			}
			parts = append(parts, lua.LVAsString(e))
		}
		return parts
	}
	L.ArgError(n, "data must be a string or an array of strings, got "+script.Describe(L.Get(n)))
	return nil
}

func dpclCheckWrite(L *lua.LState) int {
	path := L.CheckString(1)
	if err := script.CheckWrite(script.SessionOf(L), path); err != nil {
		L.RaiseError("%s", err.Error())
	}
	L.Push(lua.LString(path))
	return 1
}
