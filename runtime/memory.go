package runtime

import (
	"github.com/dpclsh/dpclsh/contexts"
)

// ReadMemory reads n bytes at addr from every live rank of set (nil: all) through the
// daemons; the answer's Data maps each rank to its bytes, Failed says who could not.
func (a *App) ReadMemory(set *contexts.Set, addr, n uint32) (*Answer, error) {
	if n > 1<<16 {
		return nil, errorf("read %d bytes at 0x%x: at most 65536 at once", n, addr)
	}
	return a.command(&Command{Op: OpRead, Addr: addr, Size: n}, a.liveRanks(contains(set)))
}

// WriteMemory writes b at addr on every live rank of set (nil: all), each rank held
// around the write.
func (a *App) WriteMemory(set *contexts.Set, addr uint32, b []byte) (*Answer, error) {
	return a.command(&Command{Op: OpWrite, Addr: addr, Data: b}, a.liveRanks(contains(set)))
}

func contains(set *contexts.Set) func(int) bool {
	if set == nil {
		return nil
	}
	return set.Contains
}
