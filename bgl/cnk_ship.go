package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// pathMax is PATH_MAX: longer paths get ENAMETOOLONG.
const pathMax = 4096

// maxShip bounds one shipped read or write, as CIOD's message buffers do; programs see a
// short count and loop, as they must for any write(2).
const maxShip = 1 << 20

// shipReq is a function-shipped system call on its way to the I/O node: the call, its
// register arguments and whatever the compute node had to send along (paths, write data).
// done runs on the compute node when the reply comes back and turns it into the result
// (copying read data or a stat buffer into the node's memory).
type shipReq struct {
	num         abi.Sysno
	args        Args
	path, path2 string
	data        []byte
	done        func(p *Proc, rep shipReply) Result
}

// shipReply is the I/O node's answer.
type shipReply struct {
	val   uint32
	val64 uint64
	err   abi.Errno
	data  []byte
}

func doneVal(p *Proc, rep shipReply) Result {
	if rep.err != 0 {
		return fail(rep.err)
	}
	return ok(rep.val)
}

func ship(r *shipReq) Result {
	if r.done == nil {
		r.done = doneVal
	}
	return Result{Ship: r}
}

// shipPaths ships a call whose paths the CNK already read.
func (p *Proc) shipPaths(num abi.Sysno, a Args, path, path2 string, done func(*Proc, shipReply) Result) Result {
	return ship(&shipReq{num: num, args: a, path: path, path2: path2, done: done})
}

// shipPathArgs reads the NUL-terminated paths at the given argument indexes and ships.
func (p *Proc) shipPathArgs(num abi.Sysno, a Args, idx ...int) Result {
	var paths [2]string
	for i, k := range idx {
		s, e := p.readString(a[k], pathMax)
		if e != 0 {
			return fail(e)
		}
		paths[i] = s
	}
	return p.shipPaths(num, a, paths[0], paths[1], nil)
}

// The generic shippers below serve several calls each (close, dup, ioctl... all ship
// their registers unchanged); p.curCall says which one is being served.

func shipFD(p *Proc, a Args) Result     { return ship(&shipReq{num: p.curCall, args: a}) }
func shipPath1(p *Proc, a Args) Result  { return p.shipPathArgs(p.curCall, a, 0) }
func shipPath2(p *Proc, a Args) Result  { return p.shipPathArgs(p.curCall, a, 0, 1) }
func shipAt1(p *Proc, a Args) Result    { return p.shipPathArgs(p.curCall, a, 1) }
func shipAt2(p *Proc, a Args) Result    { return p.shipPathArgs(p.curCall, a, 1, 3) }
func shipOpen(p *Proc, a Args) Result   { return p.shipPathArgs(abi.SysOpen, a, 0) }
func shipOpenat(p *Proc, a Args) Result { return p.shipPathArgs(abi.SysOpenat, a, 1) }
func shipLseek(p *Proc, a Args) Result  { return ship(&shipReq{num: abi.SysLseek, args: a}) }
func shipGetcwd(p *Proc, a Args) Result {
	return ship(&shipReq{num: abi.SysGetcwd, args: a, done: copyOutDone(a[0])})
}

func shipStatx(p *Proc, a Args) Result {
	path, e := p.readString(a[1], pathMax)
	if e != 0 {
		return fail(e)
	}
	return p.shipPaths(abi.SysStatx, a, path, "", copyOutDone(a[4]))
}

// copyOutDone copies the reply's data to addr and returns the reply's value.
func copyOutDone(addr uint32) func(*Proc, shipReply) Result {
	return func(p *Proc, rep shipReply) Result {
		if rep.err != 0 {
			return fail(rep.err)
		}
		return errOr(p.copyOut(addr, rep.data), rep.val)
	}
}

func readlinkDone(buf, size uint32) func(*Proc, shipReply) Result {
	return func(p *Proc, rep shipReply) Result {
		if rep.err != 0 {
			return fail(rep.err)
		}
		b := rep.data
		if uint32(len(b)) > size {
			b = b[:size]
		}
		return errOr(p.copyOut(buf, b), uint32(len(b)))
	}
}

func shipGetdents64(p *Proc, a Args) Result {
	a[2] = min(a[2], maxShip)
	return ship(&shipReq{num: abi.SysGetdents64, args: a, done: copyOutDone(a[1])})
}

func shipRead(p *Proc, a Args) Result {
	a[2] = min(a[2], maxShip)
	return ship(&shipReq{num: abi.SysRead, args: a, done: copyOutDone(a[1])})
}

func shipWrite(p *Proc, a Args) Result {
	b, e := p.copyIn(a[1], min(a[2], maxShip))
	if e != 0 {
		return fail(e)
	}
	return ship(&shipReq{num: abi.SysWrite, args: a, data: b})
}

// shipLlseek is _llseek(fd, offset_high, offset_low, result*, whence).
func shipLlseek(p *Proc, a Args) Result {
	return ship(&shipReq{num: abi.SysLlseek, args: a, done: func(p *Proc, rep shipReply) Result {
		if rep.err != 0 {
			return fail(rep.err)
		}
		var b [8]byte
		be.PutUint64(b[:], rep.val64)
		return errOr(p.copyOut(a[3], b[:]), 0)
	}})
}

// iovecs reads cnt struct iovec {base, len} at addr.
func (p *Proc) iovecs(addr, cnt uint32) ([][2]uint32, uint32, abi.Errno) {
	if cnt > 1024 {
		return nil, 0, abi.EINVAL
	}
	raw, e := p.copyIn(addr, 8*cnt)
	if e != 0 {
		return nil, 0, e
	}
	iov := make([][2]uint32, cnt)
	var total uint32
	for i := range iov {
		iov[i] = [2]uint32{be.Uint32(raw[8*i:]), be.Uint32(raw[8*i+4:])}
		total += iov[i][1]
	}
	return iov, total, 0
}

// shipWritev gathers the vectors and ships them as one write.
func shipWritev(p *Proc, a Args) Result {
	iov, total, e := p.iovecs(a[1], a[2])
	if e != 0 {
		return fail(e)
	}
	data := make([]byte, 0, min(total, maxShip))
	for _, v := range iov {
		n := min(v[1], maxShip-uint32(len(data)))
		b, e := p.copyIn(v[0], n)
		if e != 0 {
			return fail(e)
		}
		data = append(data, b...)
	}
	return ship(&shipReq{num: abi.SysWrite, args: Args{a[0], 0, uint32(len(data))}, data: data})
}

// shipReadv ships one read of the total length and scatters the reply.
func shipReadv(p *Proc, a Args) Result {
	iov, total, e := p.iovecs(a[1], a[2])
	if e != 0 {
		return fail(e)
	}
	req := Args{a[0], 0, min(total, maxShip)}
	return ship(&shipReq{num: abi.SysRead, args: req, done: func(p *Proc, rep shipReply) Result {
		if rep.err != 0 {
			return fail(rep.err)
		}
		rest := rep.data
		for _, v := range iov {
			n := min(v[1], uint32(len(rest)))
			if e := p.copyOut(v[0], rest[:n]); e != 0 {
				return fail(e)
			}
			rest = rest[n:]
		}
		return ok(uint32(len(rep.data)))
	}})
}
