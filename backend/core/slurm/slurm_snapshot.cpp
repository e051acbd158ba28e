#include "core/slurm/slurm_snapshot.h"

#include "core/slurm/slurm_cluster.h"
#include "core/slurm/slurm_json.h"
#include "core/text/text_file.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <variant>

namespace topodeck {

namespace {

namespace fs = std::filesystem;

Status writeWhole(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size())) || !out.flush())
        return Error{"cannot write " + path.string()};
    return {};
}

} // namespace

bool isSlurmFileSet(const std::string& directory) {
    std::error_code error;
    return fs::is_directory(directory, error) && fs::is_regular_file(fs::path(directory) / kSlurmNodesFile, error);
}

Result<Snapshot> readSlurmFileSet(const std::string& directory) {
    const fs::path dir(directory);
    std::error_code ignored;
    if (!fs::is_regular_file(dir / kSlurmNodesFile, ignored))
        return Error{directory + ": no " + kSlurmNodesFile + " (a Slurm snapshot directory holds nodes.json, jobs.json "
                     "and topology.conf or topology.yaml, as topodeckctl snapshot writes them)"};
    SlurmClusterMapper mapper;
    Snapshot snapshot;
    for (const char* name : {kSlurmTopologyFile, kSlurmTopologyYamlFile}) {
        if (!fs::is_regular_file(dir / name, ignored)) continue;
        auto topologies = readSlurmTopologyFile((dir / name).string());
        if (!topologies) return topologies.error();
        if (topologies->empty()) return Error{(dir / name).string() + ": no topology in it"};
        for (const std::string& warning : topologies->front().warnings) snapshot.warnings.push_back(warning);
        mapper.setTopology(std::make_shared<const SlurmTopology>(std::move(topologies->front())));
        break;
    }
    auto nodesText = readTextFile((dir / kSlurmNodesFile).string());
    if (!nodesText) return nodesText.error();
    auto nodes = readSlurmNodes(*nodesText, (dir / kSlurmNodesFile).string());
    if (!nodes) return nodes.error();
    mapper.setNodes(std::move(nodes->nodes));
    snapshot.slurmVersion = std::move(nodes->meta.slurmRelease);
    if (fs::is_regular_file(dir / kSlurmVersionFile, ignored)) {
        auto versionText = readTextFile((dir / kSlurmVersionFile).string());
        if (!versionText) return versionText.error();
        std::string_view line = *versionText;
        line = line.substr(0, line.find('\n'));
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
        if (!line.empty()) snapshot.slurmVersion = std::string(line);
    }
    if (fs::is_regular_file(dir / kSlurmJobsFile, ignored)) {
        auto jobsText = readTextFile((dir / kSlurmJobsFile).string());
        if (!jobsText) return jobsText.error();
        auto jobs = readSlurmJobs(*jobsText, (dir / kSlurmJobsFile).string());
        if (!jobs) return jobs.error();
        mapper.setJobs(std::move(jobs->jobs));
    } else {
        snapshot.warnings.push_back(directory + ": no " + std::string(kSlurmJobsFile) + ": no jobs shown");
    }
    for (std::string& warning : mapper.topologyWarnings()) snapshot.warnings.push_back(directory + ": " + warning);
    for (ClusterEvent& event : mapper.takeEvents()) {
        if (auto* node = std::get_if<NodeUpserted>(&event)) snapshot.nodes.push_back(std::move(node->node));
        else if (auto* pod = std::get_if<PodUpserted>(&event)) snapshot.pods.push_back(std::move(pod->pod));
        else if (auto* spec = std::get_if<TopologyUpserted>(&event)) snapshot.topologies.push_back(std::move(spec->spec));
        else if (auto* slurm = std::get_if<SlurmTopologySet>(&event)) snapshot.slurmTopology = slurm->topology;
    }
    return snapshot;
}

Status writeSlurmFileSet(const std::string& directory, const std::string& nodesJson, const std::string& jobsJson,
                         const SlurmTopology* topology, const std::string& slurmVersion) {
    const fs::path dir(directory);
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) return Error{"cannot create " + directory + ": " + error.message()};
    if (Status s = writeWhole(dir / kSlurmNodesFile, nodesJson); !s) return s;
    if (Status s = writeWhole(dir / kSlurmJobsFile, jobsJson); !s) return s;
    // A version left from an earlier snapshot in the same directory would be a lie about this one.
    if (slurmVersion.empty())
        fs::remove(dir / kSlurmVersionFile, error);
    else if (Status s = writeWhole(dir / kSlurmVersionFile, slurmVersion + '\n'); !s)
        return s;
    fs::remove(dir / kSlurmTopologyYamlFile, error); // one topology file, the one written now
    if (topology) return writeWhole(dir / kSlurmTopologyFile, writeTopologyConf(*topology));
    fs::remove(dir / kSlurmTopologyFile, error);
    return {};
}

} // namespace topodeck
