// A file the caller has already opened and stat'd (fstat), handed to a reader so that it is not opened and
// stat'd again: the index's cold pass takes each file's stamp from the same descriptor it then reads, one
// stat fewer per file (a system call costs microseconds on a VM; a cold index makes hundreds of thousands).
// The caller owns the descriptor and closes it.
export interface OpenedFile {
  readonly fd: number;
  readonly size: number;
}
