// The main of every test suite's executable (see test_program.h). It is compiled into each suite
// with that suite's libraries, so QT_WIDGETS_LIB / QT_GUI_LIB choose the application QTEST_MAIN
// would have made.
#include "support/test_program.h"

#if defined(QT_WIDGETS_LIB)
#include <QApplication>
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>
#endif

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace topodeck::testing {
namespace {

struct RegisteredTest {
    TestApplication application;
    RunTest run;
};

std::map<std::string, RegisteredTest>& registry() {
    static std::map<std::string, RegisteredTest> tests;
    return tests;
}

std::unique_ptr<QCoreApplication> makeApplication(TestApplication application, int& argc, char** argv) {
    std::unique_ptr<QCoreApplication> app;
    switch (application) {
    case TestApplication::None:
        return app;
    case TestApplication::Core:
        app = std::make_unique<QCoreApplication>(argc, argv);
        break;
    case TestApplication::Default:
#if defined(QT_WIDGETS_LIB)
        app = std::make_unique<QApplication>(argc, argv);
#elif defined(QT_GUI_LIB)
        app = std::make_unique<QGuiApplication>(argc, argv);
#else
        app = std::make_unique<QCoreApplication>(argc, argv);
#endif
        break;
    }
    app->setAttribute(Qt::AA_Use96Dpi, true);
    return app;
}

int usage(const char* program) {
    std::fprintf(stderr, "usage: %s TEST [Qt Test arguments]\ntests in this suite:\n", program);
    for (const auto& [name, test] : registry()) std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
}

} // namespace

bool registerTest(const char* sourceFile, TestApplication application, RunTest run) {
    const std::string name = std::filesystem::path(sourceFile).stem().string();
    if (!registry().emplace(name, RegisteredTest{application, run}).second) {
        std::fprintf(stderr, "two tests of one suite are named %s\n", name.c_str());
        std::abort();
    }
    return true;
}

} // namespace topodeck::testing

int main(int argc, char** argv) {
    using namespace topodeck::testing;
    if (argc < 2) return usage(argv[0]);
    const auto found = registry().find(argv[1]);
    if (found == registry().end()) {
        std::fprintf(stderr, "%s: no test %s\n", argv[0], argv[1]);
        return usage(argv[0]);
    }
    // The test sees its own name as the program, as it did when it was one.
    std::vector<char*> arguments(argv + 1, argv + argc);
    arguments.push_back(nullptr);
    int testArgc = argc - 1;
    const std::unique_ptr<QCoreApplication> app = makeApplication(found->second.application, testArgc, arguments.data());
    return found->second.run(testArgc, arguments.data());
}
