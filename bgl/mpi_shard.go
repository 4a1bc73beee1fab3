package bgl

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/bgl/shard"
)

// The MPI engine across shards. Each process runs the engine for its own ranks; what one
// of their calls does to a rank of another process travels as a record at the end of a
// round, a part of the window no longer than the cheapest collective (mpiRoundNS):
//
//   - a send to a rank of another shard: the message (source, context, tag, sequence,
//     arrival, payload) goes to the receiver's process, which puts it among the rank's
//     future arrivals and wakes the rank as the send would have. Its arrival is at least
//     the torus latency later, past the window, so no call of this window could have
//     taken it. The sender keeps the message's memory charge until the receive that takes
//     it is reported back (recMPIFree), and a synchronous send's request until the match
//     is (recMPIAck, due one small message's latency after the match, past the round);
//   - a collective entry: what the member's enter function put into the collective's
//     state (mpi_shard_entry.go: a reduction's operand, a gather's piece, a root's buffer,
//     an all-to-all's row, Comm_split's color and key, Comm_create's group) goes to every
//     process holding a member, and a communicator constructor's (split, dup, create,
//     idup) to every process; each keeps the collective's state and completes it at the
//     end of the round of its last entry, in the order of the entries' keys, with the
//     same result, time and wakes as one process. Since every process completes every
//     constructor in that order, each numbers the new communicators as one process does.
//     Intercommunicators are made so too (MPI_Intercomm_create's last step and
//     MPI_Intercomm_merge are constructors of each group's communicator, paired with the
//     other group's in that order), and MPI_Comm_create_group's hidden communicators in
//     key order with them (mpi_shard_stage.go). A collective costs at least mpiRoundNS,
//     so its completion can wake no rank within the round that completed it: the rounds
//     deliver every message in the same window as one process does, and the engine
//     decides the same. A nonblocking collective enters as its blocking form and
//     completes on its rank's own shard.
//
// What does not run across shards yet is refused at the call, naming rank and call:
// one-sided windows and MPI-IO. A job the engine ends ends as in one process
// (mpi_shard_end.go).

// mpiRoundNS bounds a round: no collective costs less (CollTreeBaseNS for one crossing
// of the collective network, BarrierNS for the global interrupt network).
const mpiRoundNS = CollTreeBaseNS

// shardedMPICalls are the calls the engine serves across shards: point to point, requests,
// the collectives whose entry is one buffer per rank (Gatherv's layout is used by its
// root alone), the communicator constructors and what intercommunicators add.
var shardedMPICalls = map[abi.Sysno]bool{
	abi.HcMPIInit: true, abi.HcMPIFinalize: true, abi.HcMPIAbort: true, abi.HcMPICommInfo: true,
	abi.HcMPISend: true, abi.HcMPIRecv: true, abi.HcMPIIsend: true, abi.HcMPIIrecv: true,
	abi.HcMPIWait: true, abi.HcMPIWaitall: true, abi.HcMPITest: true, abi.HcMPIProbe: true,
	abi.HcMPIIprobe: true, abi.HcMPITestall: true, abi.HcMPITestany: true, abi.HcMPIWaitany: true,
	abi.HcMPIWaitsome: true, abi.HcMPITestsome: true, abi.HcMPIRequestFree: true,
	abi.HcMPICancel: true, abi.HcMPIRequestGetStatus: true, abi.HcMPICommErrhandler: true,
	abi.HcMPIBarrier: true, abi.HcMPIBcast: true, abi.HcMPIReduce: true, abi.HcMPIAllreduce: true,
	abi.HcMPIGather: true, abi.HcMPIGatherv: true, abi.HcMPIAllgather: true, abi.HcMPIAllgatherv: true,
	abi.HcMPIScatter: true, abi.HcMPIScatterv: true,
	abi.HcMPICommGroup: true, abi.HcMPICommCompare: true,
	abi.HcMPIAlltoall: true, abi.HcMPIAlltoallv: true, abi.HcMPIAlltoallw: true,
	abi.HcMPIScan: true, abi.HcMPIExscan: true, abi.HcMPIReduceScatter: true, abi.HcMPIReduceScatterBlock: true,
	abi.HcMPICommSplit: true, abi.HcMPICommDup: true, abi.HcMPICommCreate: true, abi.HcMPICommFree: true,
	abi.HcMPIIntercommMake: true, abi.HcMPIIntercommMerge: true, abi.HcMPIInterInfo: true,
	abi.HcMPICommRemoteGroup: true, abi.HcMPIGroupStage: true,
}

// The nonblocking collectives run across shards as their blocking forms do: the entry
// travels at the call, the request completes at the rank's first progress after the
// completion's time, on its own shard.
func init() {
	for i, b := range abi.MPIIcollBlocking {
		if shardedMPICalls[b] {
			shardedMPICalls[i] = true
		}
	}
}

// The engine's records (shard_records.go has the others).
const (
	recMPIMsg  = 'M' // key, destination, source, context, tag, sequence, arrival, ack latency, payload
	recMPIColl = 'C' // key, context, sequence, call, root, member, time, type, op, part
	recMPIFree = 'F' // source, sequence: the message was received, release its charge
	recMPIAck  = 'S' // source, sequence, time: a synchronous send's match is known then
)

// msgID names a message job-wide: its sender and the sender's sequence.
type msgID struct {
	src int
	seq uint64
}

// mpiShard is the engine's side of a shardRun.
type mpiShard struct {
	out        [][]byte            // this round's records, per process
	charges    map[msgID]mpiCharge // messages sent to other shards, not yet received
	syncs      map[msgID]*mpiReq   // synchronous sends to other shards, not yet matched
	completing []*mpiColl          // collectives whose last entry came this round
	lastKey    map[*mpiColl]msgKey // the latest entry's key of each collective
	owner      []int               // the process owning each I/O node

	stageAsks  []stageAsk          // this round's MPI_Comm_create_group stage calls (mpi_shard_stage.go)
	stageWaits []stageWait         // this process's members blocked for their stage
	stageReady map[*mpiCall]string // calls whose stage is made, to return at their wake
	deadlock   deadlockTrace       // what decides a deadlock's exits (mpi_shard_end.go)
}

// initMPI readies the engine's side of the run: which process owns each I/O node.
func (sh *shardRun) initMPI() {
	part := sh.part
	m := &sh.mpiState
	m.out = make([][]byte, sh.ex.Size())
	m.charges = map[msgID]mpiCharge{}
	m.syncs = map[msgID]*mpiReq{}
	m.lastKey = map[*mpiColl]msgKey{}
	m.stageReady = map[*mpiCall]string{}
	m.owner = make([]int, part.IONodes())
	for p := range sh.ex.Size() {
		lo, hi := shardIONodes(part.IONodes(), sh.ex.Size(), p)
		for io := lo; io < hi; io++ {
			m.owner[io] = p
		}
	}
}

// shardOfRank is the process owning rank.
func (sh *shardRun) shardOfRank(rank int) int {
	return sh.mpiState.owner[sh.part.IONodeOfRank(rank)]
}

// send queues engine record rec for process p, for the round's exchange.
func (sh *shardRun) send(p int, rec []byte) {
	sh.mpiState.out[p] = shard.AppendRecord(sh.mpiState.out[p], rec)
}

// sendAway hands message m for rank dest to dest's process, keeping its charge here.
func (sh *shardRun) sendAway(m *mpiMsg, dest int) {
	if m.held.p != nil {
		sh.mpiState.charges[msgID{m.src, m.seq}] = m.held
	}
	b := appendKey([]byte{recMPIMsg}, sh.next())
	b = be.AppendUint32(b, uint32(dest))
	b = be.AppendUint32(b, uint32(m.src))
	b = be.AppendUint32(b, m.ctx)
	b = be.AppendUint32(b, uint32(m.tag))
	b = be.AppendUint64(b, m.seq)
	b = be.AppendUint64(b, m.arrival)
	var ackLat uint64
	if m.sync != nil {
		sh.mpiState.syncs[msgID{m.src, m.seq}] = m.sync
		ackLat = m.sync.ackLat
	}
	b = be.AppendUint64(b, ackLat)
	sh.send(sh.shardOfRank(dest), append(b, m.data...))
}

// matched tells the sender's process that synchronous message m of another shard was
// matched, so its sender learns of it at virtual time at.
func (sh *shardRun) matched(m *mpiMsg, at uint64) {
	b := be.AppendUint32([]byte{recMPIAck}, uint32(m.src))
	b = be.AppendUint64(b, m.seq)
	sh.send(sh.shardOfRank(m.src), be.AppendUint64(b, at))
}

// received tells the sender's process that message m of another shard was received.
func (sh *shardRun) received(m *mpiMsg) {
	b := be.AppendUint32([]byte{recMPIFree}, uint32(m.src))
	sh.send(sh.shardOfRank(m.src), be.AppendUint64(b, m.seq))
}

// entered sends call c's entry into collective k (at time now, with what its enter
// function put into k) to the other processes holding members, or to every process for a
// communicator constructor, and notes whether k has every entry.
func (sh *shardRun) entered(k *mpiColl, c *mpiCall, now uint64) {
	key, me := sh.next(), c.me
	sh.noteEntry(k, key)
	var typ, op uint32
	if reductionCalls[k.num] {
		typ, op = c.w[3], c.w[4]
	}
	b := appendKey([]byte{recMPIColl}, key)
	b = be.AppendUint32(b, k.key.ctx)
	b = be.AppendUint32(b, uint32(k.key.seq))
	b = be.AppendUint32(b, uint32(k.num))
	b = be.AppendUint32(b, uint32(int32(k.root)))
	b = be.AppendUint32(b, uint32(me))
	b = be.AppendUint64(b, now)
	b = be.AppendUint32(b, typ)
	b = be.AppendUint32(b, op)
	b = append(b, encodeEntry(k, me)...)
	to := sh.membersShards(k.comm)
	if constructorCalls[k.num] {
		to = nil
		for p := range sh.ex.Size() {
			to = append(to, p)
		}
	}
	for _, p := range to {
		if p != sh.ex.Rank() {
			sh.send(p, b)
		}
	}
}

func (sh *shardRun) noteEntry(k *mpiColl, key msgKey) {
	m := &sh.mpiState
	if last, ok := m.lastKey[k]; !ok || compareKeys(last, key) < 0 {
		m.lastKey[k] = key
	}
	if k.entered == k.comm.size {
		m.completing = append(m.completing, k)
	}
}

// membersShards lists the processes holding a member of comm, ascending.
func (sh *shardRun) membersShards(comm *mpiComm) []int {
	var out []int
	for r := range comm.size {
		p := sh.shardOfRank(comm.worldOf(r))
		if len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// mpiRecord is one engine record received, with what orders it.
type mpiRecord struct {
	key  msgKey
	from int
	kind byte
	body []byte // after the key
}

// exchangeMPI ends a round: the engine's records go to their processes, those received
// are applied in key order, then the collectives that have every entry and the stages
// asked for complete in the order of their keys. It reports whether the round must run
// again: the engine ended the job in it, or a stage woke its members.
func (sh *shardRun) exchangeMPI(j *Job) (again bool, err error) {
	m := &sh.mpiState
	in, err := sh.ex.Exchange(m.out)
	m.out = make([][]byte, sh.ex.Size()) // the exchanger may still read the old one
	if err != nil {
		return false, err
	}
	var recs []mpiRecord
	for p, buf := range in {
		rs, err := shard.Records(buf, p)
		if err != nil {
			return false, err
		}
		for _, rec := range rs {
			if len(rec) == 0 {
				return false, errorf("shard exchange: empty engine record from process %d", p)
			}
			r := mpiRecord{from: p, kind: rec[0], body: rec[1:]}
			if r.kind != recMPIFree && r.kind != recMPIAck {
				if len(r.body) < keyBytes {
					return false, errorf("shard exchange: engine record %q of %d bytes from process %d: too short", r.kind, len(rec), p)
				}
				r.key, r.body = readKey(r.body), r.body[keyBytes:]
			}
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 && len(m.completing) == 0 && len(sh.ends) == 0 && len(m.stageAsks) == 0 {
		return false, nil
	}
	e := engineOf(j)
	slices.SortStableFunc(recs, func(a, b mpiRecord) int {
		if c := compareKeys(a.key, b.key); c != 0 {
			return c
		}
		return a.from - b.from
	})
	for _, r := range recs {
		if err := e.applyRecord(j, r); err != nil {
			return false, errorf("shard exchange: engine record %q from process %d: %v", r.kind, r.from, err)
		}
	}
	ended := len(sh.ends) > 0 // every process knows every end of the round
	e.decideEnd(j)
	woke, err := e.completeRound(j)
	return ended || woke, err
}

func (e *mpiEngine) applyRecord(j *Job, r mpiRecord) error {
	b := r.body
	switch r.kind {
	case recMPIMsg:
		if len(b) < 40 {
			return fmt.Errorf("a message of %d bytes, shorter than its header", len(b))
		}
		dest := int(be.Uint32(b))
		m := &mpiMsg{src: int(be.Uint32(b[4:])), ctx: be.Uint32(b[8:]), tag: int32(be.Uint32(b[12:])),
			seq: be.Uint64(b[16:]), arrival: be.Uint64(b[24:]), ackLat: be.Uint64(b[32:]),
			data: append([]byte(nil), b[40:]...), away: e.sh}
		if dest < 0 || dest >= len(e.ranks) || m.src < 0 || m.src >= len(e.ranks) {
			return fmt.Errorf("a message from rank %d to rank %d, outside the job's %d ranks", m.src, dest, len(e.ranks))
		}
		e.arrive(j, dest, m)
	case recMPIFree:
		if len(b) != 12 {
			return fmt.Errorf("a release of %d bytes, want 12", len(b))
		}
		id := msgID{int(be.Uint32(b)), be.Uint64(b[4:])}
		held := e.sh.mpiState.charges[id]
		held.release()
		delete(e.sh.mpiState.charges, id)
	case recMPIAck:
		if len(b) != 20 {
			return fmt.Errorf("a match of %d bytes, want 20", len(b))
		}
		id := msgID{int(be.Uint32(b)), be.Uint64(b[4:])}
		q := e.sh.mpiState.syncs[id]
		if q == nil {
			return fmt.Errorf("a match of message %d of rank %d, which sent no such synchronous message", id.seq, id.src)
		}
		delete(e.sh.mpiState.syncs, id)
		q.ackAt = be.Uint64(b[12:])
		e.wakeAt(j, id.src, q.ackAt)
	case recMPIColl:
		return e.applyEntry(r.key, b)
	case recMPIEnd:
		return e.applyEnd(r.key, b)
	case recMPIStage:
		return e.applyStage(r.key, b)
	default:
		return fmt.Errorf("unknown kind")
	}
	return nil
}

// arrive puts message m among dest's future arrivals, in (arrival, source, sequence)
// order, and wakes dest for it if it is blocked.
func (e *mpiEngine) arrive(j *Job, dest int, m *mpiMsg) {
	d := &e.ranks[dest]
	i := sort.Search(len(d.future), func(i int) bool { return m.before(d.future[i]) })
	d.future = append(d.future, nil)
	copy(d.future[i+1:], d.future[i:])
	d.future[i] = m
	e.wakeAt(j, dest, m.arrival)
}

// applyEntry takes a member's entry into a collective from another process.
func (e *mpiEngine) applyEntry(key msgKey, b []byte) error {
	if len(b) < 36 {
		return fmt.Errorf("a collective entry of %d bytes, shorter than its header", len(b))
	}
	ctx, seq, num := be.Uint32(b), int(be.Uint32(b[4:])), abi.Sysno(be.Uint32(b[8:]))
	root, me, now := int(int32(be.Uint32(b[12:]))), int(be.Uint32(b[16:])), be.Uint64(b[20:])
	typ, op, entry := be.Uint32(b[28:]), be.Uint32(b[32:]), append([]byte(nil), b[36:]...)
	e.initWorld()
	comm := e.comms[ctx]
	if ctx >= mpiSelfBase && int(ctx-mpiSelfBase) < len(e.ranks) {
		comm = e.selfComm(int(ctx - mpiSelfBase))
	}
	if comm == nil || me < 0 || me >= comm.size {
		return fmt.Errorf("an entry of member %d into communicator %d, which this process does not know", me, ctx)
	}
	k := e.colls[collKey{ctx, seq}]
	if k == nil {
		k = &mpiColl{key: collKey{ctx, seq}, comm: comm, seq: seq, num: num, root: root, in: make([]bool, comm.size)}
		e.colls[k.key] = k
	}
	if k.num != num || k.root != root || k.in[me] {
		return fmt.Errorf("collective #%d on %s: %s (root %d) of %s does not meet %s (root %d)",
			seq+1, commName(comm), mpiCallName(num), root, rankDesc(comm, me), mpiCallName(k.num), k.root)
	}
	if reductionCalls[num] {
		t, err := typeOf(typ)
		if err != nil {
			return err
		}
		if k.parts == nil {
			k.typ, k.op = t, mpiOp(op)
		} else if first := firstPart(k); k.typ != t || k.op != mpiOp(op) {
			return fmt.Errorf("collective #%d on %s: %s reduces %d bytes of %s with %s, rank %d %d bytes of %s with %s",
				seq+1, commName(comm), rankDesc(comm, me), len(entry), t.name, opName(mpiOp(op)),
				firstRank(k), len(first), k.typ.name, opName(k.op))
		}
	}
	if err := decodeEntry(k, me, entry); err != nil {
		return fmt.Errorf("collective #%d on %s: the entry of %s: %v", seq+1, commName(comm), rankDesc(comm, me), err)
	}
	if reductionCalls[num] && len(k.parts[me]) != len(firstPart(k)) {
		return fmt.Errorf("collective #%d on %s: %s reduces %d bytes, rank %d %d bytes",
			seq+1, commName(comm), rankDesc(comm, me), len(k.parts[me]), firstRank(k), len(firstPart(k)))
	}
	k.in[me] = true
	k.entered++
	k.last = max(k.last, now)
	e.sh.noteEntry(k, key)
	return nil
}

// completeRound completes the collectives whose last entry came this round and makes the
// stages asked for, in the order of those entries and calls, as one process completes a
// collective at its last entry and makes a stage at its first call. It reports whether a
// stage was asked for in the round (mpi_shard_stage.go).
func (e *mpiEngine) completeRound(j *Job) (bool, error) {
	m := &e.sh.mpiState
	done := m.completing
	m.completing = nil
	for _, c := range m.completionOrder(done) {
		if c.stage != nil {
			e.makeStage(*c.stage)
			continue
		}
		k := c.coll
		e.sh.key, e.sh.sub = c.key, 1<<31 // after what the entry's delivery did
		delete(m.lastKey, k)
		if err := e.completeColl(j, k, collSpecs[k.num]); err != nil {
			return false, err
		}
	}
	return e.wakeStageWaits(j), nil
}

// streamUnreceived marks a shardOp holding one shard's part of MPI_Finalize's warning
// about unreceived messages: rank is the shard, t the number of messages, data the first
// four named, separated by NULs.
const streamUnreceived = 3

// unreceived sends process 0 this shard's part of the warning, keyed by the completion of
// MPI_Finalize, which every process makes at the same round's end.
func (sh *shardRun) unreceived(total int, parts []string) {
	sh.writes = append(sh.writes, shardOp{key: sh.next(), rank: sh.ex.Rank(), stream: streamUnreceived,
		t: uint64(total), data: []byte(strings.Join(parts, "\x00"))})
}

// mergeUnreceived puts the shards' parts together in shard order, which is rank order,
// into the line one process writes.
func mergeUnreceived(ops []shardOp) string {
	slices.SortFunc(ops, func(a, b shardOp) int { return a.rank - b.rank })
	total := 0
	var parts []string
	for _, op := range ops {
		total += int(op.t)
		for _, p := range strings.Split(string(op.data), "\x00") {
			if len(parts) < 4 {
				parts = append(parts, p)
			}
		}
	}
	return unreceivedWarning(total, parts)
}
