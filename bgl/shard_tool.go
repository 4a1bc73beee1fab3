package bgl

// A tool drives a sharded job from every process at once (runtime's shardJob): each
// process runs the same session and tool tree, a debug call is carried out by the
// process owning the rank's I/O node, and the answer is sent to every process. These
// say which process that is.

// ShardOfIONode is the process of a sharded run that owns I/O node io, with its ranks
// and their debug interface; 0 for a job in one process.
func (j *Job) ShardOfIONode(io int) int {
	if j.sh == nil {
		return 0
	}
	size := j.sh.ex.Size()
	for p := range size {
		if lo, hi := shardIONodes(j.part.IONodes(), size, p); io >= lo && io < hi {
			return p
		}
	}
	panic(errorf("ShardOfIONode(%d): the job has %d I/O nodes", io, j.part.IONodes()))
}

// Shard is the process index of this part of a sharded run (0 for a job in one process).
func (j *Job) Shard() int {
	if j.sh == nil {
		return 0
	}
	return j.sh.ex.Rank()
}
