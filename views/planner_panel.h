#pragma once

#include "session/cluster_session.h"

#include <QTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace topodeck {

using NodePodList = std::vector<std::pair<NodeId, std::int32_t>>; // a placement: nodes and the pods on each

// The gang planner: topodeckctl plan's flags (and a pasted manifest or sbatch script), a dry-run on
// the session's worker, every engine's verdict side by side, the chosen engine's trace, and its
// placement sent to the map. A newer snapshot re-runs the shown dry-run (debounced); until the
// answer arrives the result says it describes an older state.
class PlannerPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlannerPanel(ClusterSession* session, QWidget* parent = nullptr);

    // The flags as `topodeckctl plan` takes them (without the source), e.g. "--pods 16 -r nvidia.com/gpu=4".
    void setFlags(const QString& flags);
    QString flags() const;
    // How `topodeckctl` names the window's cluster ("--demo gb200"), for Copy as Command.
    void setSourceFlags(const QString& sourceFlags) { m_sourceFlags = sourceFlags; }
    // Runs the dry-run of the flags (and the pasted manifest, when there is one).
    void run();
    void clear();
    // The newest answer shown, or null.
    const PlanAnswerPtr& answer() const { return m_answer; }
    QString commandLine() const; // the equivalent topodeckctl plan line
    // Called for every snapshot shown: a newer one re-runs the dry-run shown.
    void snapshotShown(std::uint64_t generation);

Q_SIGNALS:
    // The nodes of the engine shown and the pods on each (empty: no overlay), and a caption.
    void placementShown(const topodeck::NodePodList& nodePods, const QString& caption);
    // A trace line names a domain or node by path ("su-1/rack-1-04"); the window selects it.
    void pathActivated(const QString& path);
    // Once per answer shown (tests and the --plan screenshot wait for it).
    void answerShown();

private:
    // The verdict line; stale: it describes an older state, and a re-run is on its way.
    void setVerdict(const QString& text, bool stale = false);
    void showAnswer(const PlanAnswerPtr& answer);
    void showEngine(int row);
    void saveJson();

    ClusterSession* m_session;
    QLineEdit* m_flags = nullptr;
    QPlainTextEdit* m_manifest = nullptr;
    QPushButton* m_run = nullptr;
    QLabel* m_verdict = nullptr;
    QTreeWidget* m_engines = nullptr;
    QTreeWidget* m_trace = nullptr;
    QString m_sourceFlags;
    QString m_verdictText;
    PlanAnswerPtr m_answer;
    bool m_asked = false;
    QTimer m_rerun;
};

} // namespace topodeck

Q_DECLARE_METATYPE(topodeck::NodePodList)
