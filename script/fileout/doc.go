// Package fileout writes the files dpclsh produces (traces, CSV tables, plots, the shell
// history) so that a failure is never reported as success and never leaves a truncated
// file under the name the user asked for.
//
//	err := fileout.Write("trace.json", data, fileout.Public)
//	// err: cannot write trace.json: no space left on device
//
// A regular file (or a name that does not exist yet) is written to a temporary file in
// the same directory, synced, closed, and renamed over the target: a reader sees the old
// file or the whole new one. Every write, sync, close and rename error is returned as an
// *Error, whose text is "cannot write PATH: REASON".
//
// Choices:
//   - Modes: a new file gets the mode asked for (Public, 0644, for files a user reads
//     later; Private, 0600, for the history), less the umask, as open(2) would give it;
//     a replaced file keeps its own mode. A replaced file the caller may not write (a
//     0444 file) is refused with "permission denied", as the shell's > would, rather than
//     silently replaced through the directory.
//   - Symbolic links are followed: the file they name is replaced, the link stays.
//   - Replacing needs the directory: a file in a directory the process may not write is
//     refused ("permission denied") even when the file itself is writable, and the new
//     file belongs to the writer, as with any editor that saves by renaming.
//   - Targets that are not regular files (/dev/full, /dev/null, a FIFO) are written in
//     place, without a temporary file. The names of descriptors the process already has
//     open (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N) write to that
//     descriptor itself, through a duplicate, so the text lands where the process's own
//     output goes, after it, whatever the descriptor is (terminal, pipe, file).
//   - Check tells, before a long run, whether a write could succeed: it creates and
//     removes a temporary file beside the target and leaves the target untouched.
//     A device that opens but fails on write (/dev/full) passes Check; Write reports it.
//   - Temporary names are ".NAME.PID-N.tmp" beside the target, created with O_EXCL; a
//     failed write removes its temporary file.
//   - No fsync of the directory after the rename: the file's own data is synced, which is
//     what a reader after a crash of dpclsh (not of the host) needs.
package fileout
