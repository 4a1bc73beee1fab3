// Package bgl is the Lua module bgl: partitions of the simulated Blue Gene/L machine,
// plain runs of a program without a tool (bgl.partition, bgl.run) and jobs started
// without one that a tool may attach to (bgl.launch, type bgl.Job). It keeps its
// directory's name and imports the machine (package bgl at the repository root) as
// machine. Its type bgl.Partition is what the ctx constructors also accept.
//
// A bgl.Job advances only in job:run and job:wait, on the session's goroutine. With
// listen it has a runtime.Publisher: those calls then run the job in quanta at whose ends
// a tool from another process attaches, and while it is attached the job advances only
// as that tool asks. dpcl.attach(job) attaches the tool of this session instead
// (Job.Machine); the machine then records it (bgl.Job.SetTool) and job:run and job:wait
// refuse until the tool detaches, since one goroutine drives a job.
//
// It registers itself with the kernel (package script) from init; script/std imports it.
// It imports the kernel only, and no other module.
package bgl
