package ppc

// ClockHz is the BG/L core clock: cycles and the timebase advance at this rate.
const ClockHz = 700_000_000

// CostTable gives the cycles charged per instruction of each class.
type CostTable [numClasses]uint32

// DefaultCosts approximates the PPC440 pipeline at 700 MHz: single-cycle integer issue,
// the multiply and divide latencies of the 440 core, the FPU's 5-stage latency and its
// iterative divide, and a taken-branch refill averaged into branches. Loads and stores are
// charged as L1 hits: the simulation models no caches. Blocks take their costs when they
// are predecoded, so change the table before any CPU runs.
var DefaultCosts = CostTable{
	ClassNone:    1,
	ClassInt:     1,
	ClassMul:     4,
	ClassDiv:     33,
	ClassLoad:    2,
	ClassStore:   1,
	ClassBranch:  2,
	ClassCR:      1,
	ClassSPR:     3,
	ClassSync:    10,
	ClassCache:   4,
	ClassSyscall: 50,
	ClassTrap:    1,
	ClassFP:      5,
	ClassFPLoad:  2,
	ClassFPStore: 1,
	ClassFPDiv:   31,
	ClassMAC:     2,
	ClassString:  4,
	ClassPriv:    1,
}

// events returns what one instruction adds to the Loads, Stores and FPOps counters.
func (in *inst) events() (loads, stores, fpops uint64) {
	switch in.class {
	case ClassLoad, ClassFPLoad:
		return 1, 0, 0
	case ClassStore, ClassFPStore:
		return 0, 1, 0
	case ClassString:
		if isStringLoad(in.w) {
			return 1, 0, 0
		}
		return 0, 1, 0
	case ClassFP, ClassFPDiv:
		return 0, 0, 1
	}
	return 0, 0, 0
}

// isStringLoad tells lmw, lswi and lswx from their stores.
func isStringLoad(w uint32) bool {
	xo := w >> 1 & 0x3ff
	return w>>26 == 46 || w>>26 == 31 && (xo == 533 || xo == 597)
}
