// Another file of the same suite, hence of the same program: its Fixture clashes with the first's.
namespace {
struct Helper {};
} // namespace

struct Fixture {
    double nodes = 0;
};
