// A Fixture in another suite is another program's: no clash.
struct Fixture {
    int pods = 0;
};
