package script_test

// The kernel's own tests drive the modules (dpcl launching a job, ctx and probe building
// what it installs). The internal test files cannot import a module, which imports the
// kernel, so this external test file links every module into the test binary; their
// init registers them before any test makes a session.
import _ "github.com/dpclsh/dpclsh/script/std"
