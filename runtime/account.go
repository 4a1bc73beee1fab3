package runtime

import "github.com/dpclsh/dpclsh/bgl"

// Account is what the job has cost so far, as exec --stats reports it (bgl.RunResult's
// Summary and, for a sharded job on process 0, its Shards): every rank's status (0 for
// one still running), the virtual time, and instructions and private memory summed over
// the ranks, the tool's snippets included. In a sharded job it is collective: every
// process calls it at the same point of the session. A job in another process (attached)
// has no account here.
func (a *App) Account() (*bgl.RunResult, error) {
	if a.Job == nil {
		return nil, errorf("account: the job runs in another process")
	}
	if err := a.lostErr(); err != nil {
		return nil, err
	}
	res := &bgl.RunResult{Status: make([]int, a.Size()), Env: a.Env()}
	_, _, _, codes := a.Counts()
	for r, code := range codes {
		res.Status[r] = code
	}
	if err := a.Job.Account(res); err != nil {
		return nil, errorf("account: %w", err)
	}
	return res, nil
}
