// histogram: a C++ MPI program. The ranks share out a stream of simulated measurements,
// bin them, and rank 0 prints the combined histogram.
//
// Usage: histogram [samples]   (default 10000)
//
// Measurement i (0-based, over the whole job) is the sum of four uniform draws in
// [0, 100) from a counter-based generator, so it depends on i alone: every rank count
// prints the same histogram. Rank r takes a contiguous share of the stream. A Histogram
// object bins 10 classes over [40, 360); a measurement outside that range throws
// OutOfRange, which the rank catches and counts. Each rank passes its counts to its right
// neighbour (MPI_Sendrecv) and prints what its left neighbour kept; MPI_Gather collects each
// rank's counts on rank 0 and MPI_Reduce sums the bins there. A malformed argument throws
// std::invalid_argument from std::stol, caught in main: status 2 on every rank. Everything
// printed is an integer or an exact ratio of integers, so the output does not depend on
// timing or on the order MPI combines partial results in.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// OutOfRange is what Histogram::add throws for a value outside its classes.
class OutOfRange : public std::range_error {
public:
	OutOfRange(long v, bool below)
		: std::range_error("value " + std::to_string(v) + (below ? " below" : " above") + " the classes"),
		  below_(below)
	{
	}
	bool below() const { return below_; }

private:
	bool below_;
};

// Histogram counts integer values in equal classes [lo + k*width, lo + (k+1)*width).
class Histogram {
public:
	Histogram(long lo, long width, int classes) : lo_(lo), width_(width), bins_(classes, 0) {}

	void add(long v)
	{
		if (v < lo_)
			throw OutOfRange(v, true);
		if (v >= hi())
			throw OutOfRange(v, false);
		bins_[(v - lo_) / width_]++;
		sum_ += v;
	}

	long hi() const { return lo_ + width_ * static_cast<long>(bins_.size()); }
	long lo() const { return lo_; }
	long width() const { return width_; }
	long long sum() const { return sum_; }
	const std::vector<long long> &bins() const { return bins_; }

	// reduceTo sums every rank's histogram into root's (the same classes on every rank).
	void reduceTo(int root, MPI_Comm comm)
	{
		std::vector<long long> mine(bins_);
		long long sum = sum_;
		MPI_Reduce(mine.data(), bins_.data(), static_cast<int>(bins_.size()), MPI_LONG_LONG, MPI_SUM, root, comm);
		MPI_Reduce(&sum, &sum_, 1, MPI_LONG_LONG, MPI_SUM, root, comm);
	}

	long long total() const
	{
		long long n = 0;
		for (long long b : bins_)
			n += b;
		return n;
	}

private:
	long lo_, width_;
	std::vector<long long> bins_;
	long long sum_ = 0;
};

// splitmix64 is a counter-based generator: draw(i, k) depends on i and k only.
std::uint64_t splitmix64(std::uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

long measurement(long i)
{
	long v = 0;
	for (int k = 0; k < 4; k++)
		v += static_cast<long>(splitmix64(static_cast<std::uint64_t>(i) * 4 + k) % 100);
	return v;
}

long parseSamples(int argc, char **argv)
{
	if (argc < 2)
		return 10000;
	std::size_t used = 0;
	long n = std::stol(argv[1], &used); // throws std::invalid_argument or std::out_of_range
	if (used != std::string(argv[1]).size() || n < 1 || n > 100000000)
		throw std::invalid_argument("want an integer in [1, 100000000]");
	return n;
}

void printHistogram(const Histogram &h, long long below, long long above, long samples)
{
	const std::vector<long long> &bins = h.bins();
	long long most = 1;
	for (long long b : bins)
		most = std::max(most, b);
	for (std::size_t k = 0; k < bins.size(); k++) {
		long from = h.lo() + static_cast<long>(k) * h.width();
		std::cout << '[' << std::setw(3) << from << ", " << std::setw(3) << from + h.width() << ") "
			  << std::setw(7) << bins[k] << ' ' << std::string(static_cast<std::size_t>(bins[k] * 40 / most), '#')
			  << '\n';
	}
	long long kept = h.total();
	std::cout << "kept " << kept << " of " << samples << ", " << below << " below " << h.lo() << ", " << above
		  << " above " << h.hi() - 1 << '\n';
	if (kept > 0) {
		// The mean to three decimals, from integers: exact on every machine.
		long long thousandths = (h.sum() * 1000 + kept / 2) / kept;
		std::cout << "mean of the kept values " << thousandths / 1000 << '.' << std::setfill('0') << std::setw(3)
			  << thousandths % 1000 << std::setfill(' ') << '\n';
	}
}

} // namespace

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	// std::cout writes through C's stdout (sync_with_stdio): line buffering with a buffer
	// of its own makes each line one write(2), so mpiexec never splits one.
	static char line[4096];
	std::setvbuf(stdout, line, _IOLBF, sizeof line);
	int rank = 0, size = 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	long samples = 0;
	try {
		samples = parseSamples(argc, argv);
	} catch (const std::exception &e) {
		if (rank == 0)
			std::cerr << argv[0] << ": argument 1: " << e.what() << ", got \"" << argv[1] << "\"\n";
		MPI_Finalize();
		return 2;
	}
	if (rank == 0)
		std::cout << "histogram: " << size << " ranks, " << samples << " samples\n";

	long first = samples / size * rank + std::min<long>(rank, samples % size);
	long count = samples / size + (rank < samples % size ? 1 : 0);
	Histogram h(40, 32, 10);
	long long mine[3] = {0, 0, 0}; // kept, below, above
	for (long i = first; i < first + count; i++) {
		try {
			h.add(measurement(i));
			mine[0]++;
		} catch (const OutOfRange &e) {
			mine[e.below() ? 1 : 2]++;
		}
	}

	long long left[3];
	MPI_Sendrecv(mine, 3, MPI_LONG_LONG, (rank + 1) % size, 1, left, 3, MPI_LONG_LONG, (rank + size - 1) % size, 1,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	std::cout << "rank " << rank << ": measurements " << first << ".." << first + count - 1 << ", left neighbour kept "
		  << left[0] << " and rejected " << left[1] + left[2] << '\n';

	std::vector<long long> shares(rank == 0 ? 3 * size : 0);
	MPI_Gather(mine, 3, MPI_LONG_LONG, shares.data(), 3, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	h.reduceTo(0, MPI_COMM_WORLD);
	if (rank == 0) {
		long long below = 0, above = 0;
		std::cout << "kept per rank:";
		for (int r = 0; r < size; r++) {
			std::cout << ' ' << shares[3 * r];
			below += shares[3 * r + 1];
			above += shares[3 * r + 2];
		}
		std::cout << '\n';
		printHistogram(h, below, above, samples);
	}
	MPI_Finalize();
	return 0;
}
