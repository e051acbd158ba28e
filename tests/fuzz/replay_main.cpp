// A main for the fuzz targets in the normal (gcc) builds: runs LLVMFuzzerTestOneInput on each
// input named on the command line, so that ctest replays the seeds and the kept findings.
//   FILE        one input
//   DIR         every regular file in it, in name order ("DIR/" may be missing: no findings yet)
//   pack:DIR    a Slurm snapshot directory packed into one input (fuzz_support.h's format)
// Prints how many inputs ran; any crash or sanitizer report fails the test by itself.
#include "fuzz_support.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

bool readWhole(const fs::path& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream text;
    text << in.rdbuf();
    out = text.str();
    return !in.bad();
}

std::vector<fs::path> filesIn(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

void run(const std::string& input, const std::string& name, int& count) {
    std::fprintf(stderr, "replay %s (%zu bytes)\n", name.c_str(), input.size());
    // A copy of exactly the input's size, so that ASan sees a read past its end.
    std::vector<std::uint8_t> bytes(input.begin(), input.end());
    (void)LLVMFuzzerTestOneInput(bytes.empty() ? nullptr : bytes.data(), bytes.size());
    ++count;
}

} // namespace

int main(int argc, char** argv) {
    int count = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        std::string input;
        if (arg.starts_with("pack:")) {
            const fs::path dir = arg.substr(5);
            std::vector<std::pair<std::string, std::string>> files;
            for (const fs::path& file : filesIn(dir)) {
                if (!readWhole(file, input)) {
                    std::fprintf(stderr, "cannot read %s\n", file.c_str());
                    return 2;
                }
                files.emplace_back(file.filename().string(), input);
            }
            run(topodeck::fuzz::packFiles(files), arg, count);
            continue;
        }
        std::error_code error;
        if (fs::is_directory(arg, error)) {
            for (const fs::path& file : filesIn(arg)) {
                if (!readWhole(file, input)) {
                    std::fprintf(stderr, "cannot read %s\n", file.c_str());
                    return 2;
                }
                run(input, file.string(), count);
            }
            continue;
        }
        if (arg.ends_with('/') && !fs::exists(arg, error)) continue; // no findings kept yet
        if (!readWhole(arg, input)) {
            std::fprintf(stderr, "cannot read %s\n", arg.c_str());
            return 2;
        }
        run(input, arg, count);
    }
    std::printf("%d inputs replayed\n", count);
    return 0;
}
