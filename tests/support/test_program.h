#pragma once
// One executable per test suite: each tests/<suite>/<name>.cpp registers its Qt Test class under
// its file's name, and the suite's main (suite_main.cpp) runs the one named on its command line:
//   unit_tests test_quantity [Qt Test arguments]
// ctest keeps one entry per file. A suite links once where it linked once per file (about 100
// link and moc steps fewer), and the macros below stand where QTEST_MAIN & co. stood.

#include <QtTest>

namespace topodeck::testing {

// Which application object the suite main makes before the test object, as QTest's own macros do.
enum class TestApplication {
    None,    // QTEST_APPLESS_MAIN
    Core,    // QTEST_GUILESS_MAIN
    Default, // QTEST_MAIN: QApplication, QGuiApplication or QCoreApplication, by what the suite links
};

using RunTest = int (*)(int argc, char** argv);

// Registers the test of `sourceFile` (its base name without extension is the test's name).
bool registerTest(const char* sourceFile, TestApplication application, RunTest run);

} // namespace topodeck::testing

#define TOPODECK_TEST_PROGRAM(TestObject, application)                                                       \
    namespace {                                                                                              \
    int runTest##TestObject(int argc, char** argv) {                                                         \
        TestObject test;                                                                                     \
        return QTest::qExec(&test, argc, argv);                                                              \
    }                                                                                                        \
    [[maybe_unused]] const bool registered##TestObject =                                                     \
        topodeck::testing::registerTest(__FILE__, application, runTest##TestObject);                         \
    }

#define TOPODECK_TEST_MAIN(TestObject) TOPODECK_TEST_PROGRAM(TestObject, topodeck::testing::TestApplication::Default)
#define TOPODECK_TEST_GUILESS_MAIN(TestObject)                                                                \
    TOPODECK_TEST_PROGRAM(TestObject, topodeck::testing::TestApplication::Core)
#define TOPODECK_TEST_APPLESS_MAIN(TestObject)                                                                \
    TOPODECK_TEST_PROGRAM(TestObject, topodeck::testing::TestApplication::None)
