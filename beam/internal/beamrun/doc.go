// Package beamrun holds what the beam module's pipelines share: the
// registry of the runs this process drives (so that workers that the
// runner executes in the driver's process stop with the driver's
// context and none outlives its run), running a pipeline (on Beam's
// Prism runner in-process unless told otherwise), reading, writing and
// removing files on Beam's file systems, and the checksum that shard
// files end with.
package beamrun
