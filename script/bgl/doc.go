// Package bgl is the Lua module bgl: partitions of the simulated Blue Gene/L machine and
// plain runs of a program without a tool (bgl.partition, bgl.run). It keeps its
// directory's name and imports the machine (package bgl at the repository root) as
// machine. Its type bgl.Partition is what the ctx constructors also accept.
//
// It registers itself with the kernel (package script) from init; script/std imports it.
// It imports the kernel only, and no other module.
package bgl
