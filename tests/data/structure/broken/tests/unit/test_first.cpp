// A test file of the unit suite with a helper type outside an anonymous namespace.
struct Fixture {
    int nodes = 0;
};
