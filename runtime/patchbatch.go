package runtime

import (
	"encoding/binary"
	"slices"

	"github.com/dpclsh/dpclsh/ppc"
)

// Installing probes writes, on every rank, a trampoline and a branch per point: hundreds
// of writes per rank, nearly all the same from rank to rank. A rank's writes for one
// command are gathered (rankWrites) and named by what they write (the blobs of the
// command and their addresses); ranks given the same writes share one writeBatch, whose
// ppc.PokeBatch applies them to the first rank and hands the resulting table to every
// other rank that started from the same shared one. A machine without batches (a remote
// one) gets the writes one by one.

// blob is bytes the daemon writes, numbered within the command so that a rank's writes
// are named without their bytes.
type blob struct {
	id uint32
	b  []byte
}

// blob numbers b for the command.
func (d *Daemon) blob(b []byte) *blob {
	d.blobs++
	return &blob{d.blobs, b}
}

// word returns the command's blob of the big-endian word w.
func (d *Daemon) word(w uint32) *blob {
	b, ok := d.words[w]
	if !ok {
		b = d.blob(wordBytes(w))
		d.words[w] = b
	}
	return b
}

// rankWrites are one rank's writes for a command, in order, and their name.
type rankWrites struct {
	key    []byte // per write: its address and blob number
	writes []*blob
	addrs  []uint32
}

func (w *rankWrites) reset() {
	w.key, w.writes, w.addrs = w.key[:0], w.writes[:0], w.addrs[:0]
}

func (w *rankWrites) add(addr uint32, b *blob) {
	w.key = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(w.key, addr), b.id)
	w.writes = append(w.writes, b)
	w.addrs = append(w.addrs, addr)
}

// writeBatch is a batch of writes as the machine applies it.
type writeBatch struct {
	poke   *ppc.PokeBatch
	writes []*blob
	addrs  []uint32
}

// batchWriter is a Machine that applies a batch of writes at once (bgl.Debug).
type batchWriter interface {
	WriteBatch(rank int, b *ppc.PokeBatch) error
}

// write applies a rank's writes for the command, in order.
func (d *Daemon) write(m Machine, rank int, w *rankWrites) error {
	if len(w.writes) == 0 {
		return nil
	}
	wb := d.batches[string(w.key)]
	if wb == nil {
		wb = &writeBatch{poke: ppc.NewPokeBatch(), writes: slices.Clone(w.writes), addrs: slices.Clone(w.addrs)}
		for i, b := range w.writes {
			wb.poke.Add(w.addrs[i], b.b)
		}
		d.batches[string(w.key)] = wb
	}
	if bw, ok := m.(batchWriter); ok {
		return bw.WriteBatch(rank, wb.poke)
	}
	for i, b := range wb.writes {
		if err := m.WriteMem(rank, wb.addrs[i], b.b); err != nil {
			return err
		}
	}
	return nil
}

// pointHandles returns the handles whose snippets point plan i's trampoline holds, one
// slice per plan of the command, shared by the ranks' records (own).
func (d *Daemon) pointHandles(i int, p *PointPlan) []uint32 {
	hs, ok := d.owners[i]
	if !ok {
		hs = toggleHandles(p)
		d.owners[i] = hs
	}
	return hs
}
