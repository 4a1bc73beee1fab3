// Package ctx is the Lua module ctx: contexts (sets of ranks, package contexts) built from
// an application, a partition or a size, their algebra (+, *, -, unary -) and the
// aggregation a probe's messages get. An application or partition is any userdata whose
// Go value has Size (CtxApp) and, for ctx.ionode, IONodeOf (CtxIONodeApp); the kernel's
// script.ContextOf reads a Context back, so dpcl takes contexts without importing ctx.
//
// It registers itself with the kernel (package script) from init; script/std imports it.
// It imports the kernel only, and no other module.
package ctx
