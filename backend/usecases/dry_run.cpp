#include "usecases/dry_run.h"

#include "core/placement/reports/placement_report.h"

namespace topodeck {

PlanAnswer dryRun(const ClusterState& state, const std::shared_ptr<const PlanBase>& base, const PlanQuery& query) {
    PlanAnswer answer;
    answer.generation = state.generation();
    auto inputs = base ? preparePlan(base, query) : Result<std::unique_ptr<PlanInputs>>(Error{"no cluster is open"});
    auto outcome = inputs ? runPlanQuery(**inputs, query) : Result<PlanOutcome>(inputs.error());
    if (!outcome) {
        answer.error = outcome.error().message;
        return answer;
    }
    answer.outcome = std::move(*outcome);
    for (const PlacementResult& result : answer.outcome.results) {
        auto& nodes = answer.nodePods.emplace_back();
        for (const NodePods& placed : result.nodes)
            if (const auto id = state.findNode(placed.node)) nodes.emplace_back(*id, placed.pods);
    }
    answer.json =
        renderPlanJson(answer.outcome.results, answer.outcome.skipped, query.compare, nullptr, &(*inputs)->failures);
    return answer;
}

} // namespace topodeck
