package bgl

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// A job's environment is what its ranks' getenv reads: envp on the initial stack, exactly
// JobConfig.Env. Nothing of the host's environment reaches it unless the caller names it,
// as BG/L's mpirun passed nothing but its -env "A=1" and -exp_env A variables: a run is
// then reproduced from its command line alone, whoever's shell starts it.

// EnvName reports whether s can name a variable of a job's environment: letters, digits
// and _, not starting with a digit (what a shell accepts after export).
func EnvName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// EnvNameRule is how an error explains what EnvName accepts.
const EnvNameRule = "letters, digits and _, not starting with a digit"

// Exporter builds a job's environment from variables set by value (mpirun -env) and
// names whose host value is passed on (mpirun -exp_env). Each method checks its one
// variable, so that the error names it: a bad name, a NUL byte in a value, a name given
// twice, an exported name the host does not set.
type Exporter struct {
	// Lookup reads the host's environment (os.LookupEnv); nil: nothing is set.
	Lookup func(name string) (string, bool)
	vars   map[string]string
}

// Set adds NAME=value.
func (e *Exporter) Set(name, value string) error {
	if !EnvName(name) {
		return fmt.Errorf("%q is not a variable name (%s)", name, EnvNameRule)
	}
	if strings.IndexByte(value, 0) >= 0 {
		return fmt.Errorf("%s contains a NUL byte, which C strings cannot hold", name)
	}
	if _, dup := e.vars[name]; dup {
		return fmt.Errorf("%s is given twice", name)
	}
	if e.vars == nil {
		e.vars = map[string]string{}
	}
	e.vars[name] = value
	return nil
}

// Export adds name with the host's value.
func (e *Exporter) Export(name string) error {
	if !EnvName(name) {
		return fmt.Errorf("%q is not a variable name (%s)", name, EnvNameRule)
	}
	var v string
	ok := false
	if e.Lookup != nil {
		v, ok = e.Lookup(name)
	}
	if !ok {
		return fmt.Errorf("%s is not set on the host, so it cannot be exported", name)
	}
	return e.Set(name, v)
}

// Env is the environment built so far, its "NAME=value" strings sorted: the order does not
// depend on the order the variables were given in.
func (e *Exporter) Env() []string {
	env := make([]string, 0, len(e.vars))
	for k, v := range e.vars {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env
}

// EnvDigest is the first 12 hex digits of the SHA-256 of env sorted, each variable ended
// by a NUL as in envp: two runs saw the same environment exactly when their digests match
// (up to a collision).
func EnvDigest(env []string) string {
	sorted := slices.Clone(env)
	slices.Sort(sorted)
	h := sha256.New()
	for _, kv := range sorted {
		h.Write([]byte(kv))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
