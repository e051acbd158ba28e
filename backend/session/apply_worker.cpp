#include "session/apply_worker.h"

#include "net/label_patch_sender.h"
#include "usecases/apply_change.h"

#include <filesystem>

namespace topodeck {

void ApplyWorker::run(const ApplyJobPtr& job) {
    auto answer = std::make_shared<ApplyAnswer>();
    answer->target = job->target;
    ExecEnvironment exec;
    exec.cancelled = job->cancel.get(); // the job keeps it alive
    KubePatchOptions patch;
    const auto credentials = std::make_shared<KubeCredentials>(job->connection, std::move(exec));
    ApplyRun run;
    run.target = job->target;
    run.fieldManager = patch.fieldManager;
    run.journalFile = job->request.journalFile;
    run.batchSize = job->request.batchSize;
    run.dryRunOnly = job->request.dryRunOnly;
    run.sendPatches = kubePatchSender(credentials, patch);
    run.sendObject = kubeObjectSender(credentials, patch);
    run.cancelled = [cancel = job->cancel] { return cancel->load(); };
    const auto total = static_cast<quint64>(job->plan.labelChanges.size() + job->plan.objectChanges.size());
    run.progress = [this, total](const ChangeJournal& sofar) {
        Q_EMIT applyProgressed(total - sofar.count(ChangeOutcome::NotAttempted), total);
    };
    if (!run.dryRunOnly) {
        std::error_code ignored; // an unwritable folder is the journal's error, below
        std::filesystem::create_directories(std::filesystem::path(run.journalFile).parent_path(), ignored);
    }
    auto applied = runApply(job->plan, run);
    if (!applied) {
        answer->refused = applied.error().message;
    } else {
        answer->result = std::move(applied->result);
        answer->journalProblem = std::move(applied->journalProblem);
        if (!run.dryRunOnly && answer->result.stage != ApplyResult::Stage::DryRunRefused)
            answer->journalFile = run.journalFile;
        answer->refusals = serverRefusals(job->plan, answer->result);
    }
    m_applying.store(false);
    Q_EMIT applyFinished(std::move(answer));
}

} // namespace topodeck
