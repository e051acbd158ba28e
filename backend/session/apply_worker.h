#pragma once
// Internal to the session: sends a checked change plan to a Kubernetes cluster on the session's
// apply thread (runApply over net's patch and object senders), so that the source and the
// requests go on meanwhile.

#include "net/kubeconfig.h"
#include "session/session_requests.h"

#include <QMetaType>
#include <QObject>

#include <atomic>
#include <memory>
#include <string>

namespace topodeck {

struct ApplyJob {
    ApplyRequest request;
    ChangePlan plan; // checked, with its objects' preconditions (planToSend)
    std::string target;
    KubeConnection connection;
    std::shared_ptr<std::atomic<bool>> cancel;
};
using ApplyJobPtr = std::shared_ptr<const ApplyJob>;

class ApplyWorker : public QObject {
    Q_OBJECT
public:
    // `applying` is the session's: set while an apply runs, cleared here when it ends.
    explicit ApplyWorker(std::atomic<bool>& applying) : m_applying(applying) {}

    void run(const ApplyJobPtr& job);

Q_SIGNALS:
    void applyProgressed(quint64 changesDone, quint64 changesTotal);
    void applyFinished(std::shared_ptr<const topodeck::ApplyAnswer> answer);

private:
    std::atomic<bool>& m_applying;
};

} // namespace topodeck

Q_DECLARE_METATYPE(topodeck::ApplyJobPtr)
