// runtime.cpp: what C++ programs ask of the CNK beyond what C programs do. libstdc++'s
// <iostream> set-up calls futex (std::call_once), exceptions unwind through .eh_frame,
// static objects are constructed before main and destroyed after it, the containers
// allocate, the timed waits below time out, and the streams read and write files.
// bgl's TestCXXRuntime runs it under qemu-ppc and on the simulated machine.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

struct Announce {
	std::string name;
	explicit Announce(std::string n) : name(std::move(n)) { std::cout << "construct " << name << '\n'; }
	~Announce() { std::cout << "destroy " << name << std::endl; }
};

Announce first("first"), second("second");

struct Shape {
	virtual ~Shape() = default;
	virtual double area() const = 0;
	virtual std::string name() const = 0;
};

struct Rect : Shape {
	double w, h;
	Rect(double w_, double h_) : w(w_), h(h_) {}
	double area() const override { return w * h; }
	std::string name() const override { return "rect"; }
};

struct Square : Rect {
	explicit Square(double s) : Rect(s, s) {}
	std::string name() const override { return "square"; }
};

int &calls()
{
	static int n = 40; // a guarded local static: __cxa_guard_acquire
	return n;
}

void descend(int depth)
{
	std::string frame(64, static_cast<char>('a' + depth % 26));
	if (depth == 0)
		throw std::range_error("bottom reached with frame " + frame.substr(0, 3));
	descend(depth - 1);
}

} // namespace

int main(int argc, char **argv)
{
	std::vector<std::unique_ptr<Shape>> shapes;
	shapes.push_back(std::make_unique<Rect>(2, 3.5));
	shapes.push_back(std::make_unique<Square>(1.25));
	for (const auto &s : shapes)
		std::cout << s->name() << " area " << std::fixed << std::setprecision(4) << s->area() << '\n';

	try {
		descend(40);
	} catch (const std::range_error &e) {
		std::cout << "caught range_error: " << e.what() << '\n';
	}
	try {
		std::vector<int>(3).at(5);
	} catch (const std::out_of_range &) {
		std::cout << "caught out_of_range from vector::at\n";
	}
	try {
		throw 17;
	} catch (int v) {
		std::cout << "caught int " << v << '\n';
	}

	std::map<std::string, int> words;
	std::istringstream text("the quick brown fox jumps over the lazy dog the end");
	for (std::string w; text >> w;)
		words[w]++;
	for (const auto &kv : words)
		std::cout << kv.first << '=' << kv.second << ' ';
	std::cout << '\n';
	std::unordered_map<int, std::string> names{{1, "one"}, {2, "two"}};
	std::cout << names[2] << ' ' << ++calls() << ' ' << ++calls() << '\n';

	std::vector<int> v{5, 3, 9, 1, 7};
	std::sort(v.begin(), v.end(), std::greater<int>());
	for (int x : v)
		std::cout << x << ' ';
	std::cout << std::hex << 255 << std::dec << ' ' << std::scientific << 12345.678 << '\n';

	{
		std::ofstream out("cxx_runtime.txt");
		out << "written " << 42 << '\n';
	}
	{
		std::ifstream in("cxx_runtime.txt");
		std::string a;
		int b = 0;
		in >> a >> b;
		std::cout << "read back " << a << ' ' << b << '\n';
	}
	std::remove("cxx_runtime.txt");

	// One thread: these waits can only time out (futex with a timeout).
	std::timed_mutex tm;
	tm.lock();
	std::cout << "try_lock_for on a held mutex: " << std::boolalpha
		  << tm.try_lock_for(std::chrono::milliseconds(3)) << '\n';
	tm.unlock();
	std::mutex m;
	std::condition_variable cv;
	std::unique_lock<std::mutex> lk(m);
	std::cout << "wait_for with no notifier: "
		  << (cv.wait_for(lk, std::chrono::milliseconds(2)) == std::cv_status::timeout ? "timeout" : "woken") << '\n';

	std::cerr << "argc " << argc << ' ' << (argc > 1 ? argv[1] : "-") << std::endl;
	return 0;
}
