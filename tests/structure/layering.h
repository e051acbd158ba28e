#pragma once

// The project's layering, checked on the include lines of its sources: which layer a file belongs
// to (by its folder), which layers and which Qt modules it may include, and the limits every
// source folder keeps (header length, every file named in a CMakeLists.txt).

#include <filesystem>
#include <string>
#include <vector>

namespace topodeck::structure {

struct Violation {
    std::string file; // relative to the tree's root
    int line = 0;     // 0: the file as a whole
    std::string what; // the include line, or what is wrong with the file
    std::string rule;
    friend bool operator==(const Violation&, const Violation&) = default;
};

// "backend/core/x.h:12: #include "net/y.h": <rule>", as the test prints it.
std::string describe(const Violation& violation);

struct TreeLimits {
    std::size_t maxBackendHeaderLines = 600;
};

// Every .h and .cpp under backend/, models/, views/ and app/ of `root`, in path order. qtHeaders
// is Qt's include folder (holding QtCore/, QtGui/, QtWidgets/), used to tell which Qt module an
// #include <QName> belongs to.
std::vector<Violation> checkTree(const std::filesystem::path& root, const std::filesystem::path& qtHeaders,
                                 const TreeLimits& limits = {});

} // namespace topodeck::structure
