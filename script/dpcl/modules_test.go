package dpcl_test

// dpcl's tests install probes built by probe, over contexts of ctx, with filters of
// filter. The internal test files cannot import those modules' gatherer (script/std
// imports dpcl), so this external test file links every module into the test binary.
import _ "github.com/dpclsh/dpclsh/script/std"
