// readSlurmFileSet: a Slurm snapshot directory (nodes.json, jobs.json, topology.conf or
// topology.yaml, slurm-version.txt). The input is the directory packed as fuzz_support.h's
// packFiles writes it ("==> nodes.json <==" lines before each file); it is unpacked into a
// directory of this process's own, read, and shown as `topodeckctl show -f DIR` shows it.
#include "fuzz_cluster.h"
#include "fuzz_support.h"

#include "core/slurm/slurm_snapshot.h"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path& scratch() {
    static const fs::path dir = [] {
        fs::path made = fs::temp_directory_path() / ("topodeck-fuzz-snapshot-" + std::to_string(::getpid()));
        fs::create_directories(made);
        return made;
    }();
    return dir;
}

constexpr std::array<const char*, 5> kFiles = {topodeck::kSlurmNodesFile, topodeck::kSlurmJobsFile,
                                               topodeck::kSlurmTopologyFile, topodeck::kSlurmTopologyYamlFile,
                                               topodeck::kSlurmVersionFile};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fs::path& dir = scratch();
    std::error_code ignored;
    for (const char* name : kFiles) fs::remove(dir / name, ignored);
    for (const auto& [name, content] : topodeck::fuzz::unpackFiles(topodeck::fuzz::text(data, size))) {
        // Only the snapshot's own names: a fuzzed name must not reach outside the directory.
        bool known = false;
        for (const char* file : kFiles) known = known || name == file;
        if (!known) continue;
        std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
    }
    topodeck::Result<topodeck::Snapshot> snapshot = topodeck::readSlurmFileSet(dir.string());
    if (!snapshot) {
        TOPODECK_FUZZ_CHECK(!snapshot.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    topodeck::fuzz::showSnapshot(std::move(*snapshot));
    return 0;
}
