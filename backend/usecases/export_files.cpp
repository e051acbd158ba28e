#include "usecases/export_files.h"

#include "core/changes/change_plan_file.h"
#include "core/exports/map_svg.h"
#include "core/placement/reports/review_bundle.h"

namespace topodeck {
namespace {

// The gang as the scheduler it is written for wants it: the query's engine, else the one the
// request was written for (an sbatch line: Slurm; anything else: Kueue).
Result<std::string> gangText(const GangRequest& gang, const ExportRequest& request, const TopologyIndex& index) {
    const std::vector<std::string>& engines = request.gang->engines;
    const std::string engine = !engines.empty() ? engines.front()
                               : gang.slurm     ? std::string("slurm")
                                                : std::string("kueue-tas");
    if (engine.starts_with("slurm"))
        return gangBatchScript(gang, index.spec(), index.gpuResources(),
                               request.options.blocks || engine == "slurm-block");
    GangExportOptions options = request.gangOptions;
    if (engine == "kai")
        options.scheduler = GangScheduler::Kai;
    else if (engine == "volcano")
        options.scheduler = GangScheduler::Volcano;
    if (request.gangKind)
        options.workload = *request.gangKind;
    else if (options.scheduler == GangScheduler::Volcano)
        options.workload = GangWorkload::VolcanoJob;
    else if (gang.heterogeneous())
        options.workload = GangWorkload::JobSet;
    return gangManifestYaml(gang, index.spec(), options);
}

Result<ExportedFiles> bundleFiles(const ClusterState& state, const TopologyIndex& index, const ExportRequest& request,
                                  const ChangePlan* plan) {
    ReviewBundleRequest bundle;
    bundle.source = request.source;
    bundle.plan = plan;
    bundle.dryRun = request.gang ? &*request.gang : nullptr;
    bundle.exports = request.options;
    bundle.gpus = index.gpuResources();
    auto made = reviewBundle(state, index, bundle);
    if (!made) return made.error();
    return ExportedFiles{std::move(made->files), std::move(made->warnings)};
}

} // namespace

Result<ExportedFiles> exportFiles(const ClusterState& state, const TopologyIndex& index, const ExportRequest& request) {
    std::optional<ChangePlan> planRead;
    if (!request.planFile.empty()) {
        auto read = readChangePlanFile(request.planFile);
        if (!read) return read.error();
        planRead = std::move(*read);
    }
    const ChangePlan* plan = planRead ? &*planRead : nullptr;
    if (request.bundle) return bundleFiles(state, index, request, plan);
    ExportedFiles out;
    for (const std::string& format : request.formats) {
        const bool all = format == "all";
        if (format == "gang") {
            if (!request.gang) return Error{"gang needs the gang"};
            auto gang = planGang(*request.gang);
            if (!gang) return gang.error();
            auto text = gangText(*gang, request, index);
            if (!text) return text.error();
            out.files.push_back({"gang", std::move(*text)});
        } else if (format == "map") {
            out.files.push_back({"map.svg", topologyMapSvg(state, index, {request.source, {}, {}})});
        } else if (format != "labels") {
            TopologyExportFiles exports = topologyExportFiles(state, index, request.options, format);
            // One form refused (a Topology of a hierarchy without labels) leaves the others in "all".
            if (!all && request.formats.size() == 1 && exports.files.empty() && !exports.leftOut.empty())
                return Error{exports.leftOut.front()};
            out.warnings.insert(out.warnings.end(), exports.leftOut.begin(), exports.leftOut.end());
            for (ExportFile& file : exports.files) out.files.push_back(std::move(file));
        }
        if (all || format == "labels") {
            NodeLabelsExport labels = nodeLabelsExport(state, index, plan);
            out.files.push_back({"node-labels.yaml", std::move(labels.objects)});
            out.files.push_back({"kubectl-label.sh", std::move(labels.kubectlLines)});
        }
    }
    if (out.files.empty()) return Error{out.warnings.empty() ? std::string("nothing to export") : out.warnings.front()};
    return out;
}

} // namespace topodeck
