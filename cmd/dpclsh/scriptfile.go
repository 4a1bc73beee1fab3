package main

import (
	"bytes"
	"fmt"
	"os"
)

// notLuaScript returns an error when path is a program or other binary file rather than a
// Lua script: Lua would report its bytes as a syntax error. A file that cannot be read
// is left to the loader, whose error names it.
func notLuaScript(cmd, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := f.Read(head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return fmt.Errorf("%s: %s is an executable, not a Lua script: run it with dpclsh exec %s, or give %s a script that launches it (dpcl.launch(%q, {nodes = 4}))",
			cmd, path, path, cmd, path)
	case bytes.IndexByte(head, 0) >= 0:
		return fmt.Errorf("%s: %s is a binary file, not a Lua script", cmd, path)
	}
	return nil
}
