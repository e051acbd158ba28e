#pragma once

#include "session/cluster_session.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTreeView;

namespace topodeck {

class PlanResultModel;
class PlanTraceModel;

// A placement: nodes and the pods on each. Qt 6 knows vectors of pairs of known types already: a
// Q_DECLARE_METATYPE here would clash with a moc that met the type first.
using NodePodList = std::vector<std::pair<NodeId, std::int32_t>>;

// The gang planner: a form (pods, per-pod request, engine, levels, slices, Slurm flags) that reads
// and writes topodeckctl plan's flags line, the line itself, a manifest or sbatch script pasted or
// dropped, a dry-run on the session's worker, every engine's verdict side by side, the chosen
// engine's trace, and its placement sent to the map. A newer snapshot re-runs the shown dry-run
// (debounced); until the answer arrives the result says it describes an older state.
class PlannerPanel : public QWidget {
    Q_OBJECT
public:
    // Larger files are no manifest anyone pastes; refusing them keeps a stray drop from filling the
    // editor with megabytes.
    static constexpr qint64 kMaxManifestBytes = 2 * 1024 * 1024;

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
    // Reads a manifest or batch script into the paste area, off the GUI thread; manifestLoaded follows.
    void loadManifestFile(const QString& path);
    QString manifestText() const;

    PlanResultModel* resultModel() const { return m_results; }
    PlanTraceModel* traceModel() const { return m_traceModel; }

Q_SIGNALS:
    // The nodes of the engine shown and the pods on each (empty: no overlay), and a caption.
    void placementShown(const topodeck::NodePodList& nodePods, const QString& caption);
    // A trace line names a domain or node by path ("su-1/rack-1-04"); the window selects it.
    void pathActivated(const QString& path);
    // Once per answer shown (tests and the --plan screenshot wait for it).
    void answerShown();
    // A file given to loadManifestFile was read into the paste area (ok), or refused (the verdict says why).
    void manifestLoaded(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* buildForm();
    // The verdict line; stale: it describes an older state, and a re-run is on its way.
    void setVerdict(const QString& text, bool stale = false);
    void showAnswer(const PlanAnswerPtr& answer);
    void showEngine(int row);
    void saveJson();
    // Form -> line: the flag given these values (none: removed), the rest of the line kept.
    void setFlag(const char* name, const QStringList& values);
    // Line -> form: every field shows what the line says.
    void readFields();
    void refreshLevelChoices();
    void manifestRead(const QString& path, const QByteArray& bytes, const QString& error);

    ClusterSession* m_session;
    QLineEdit* m_flags = nullptr;
    QSpinBox* m_pods = nullptr;
    QLineEdit* m_request = nullptr;
    QComboBox* m_engine = nullptr;
    QComboBox* m_required = nullptr;
    QComboBox* m_preferred = nullptr;
    QSpinBox* m_sliceSize = nullptr;
    QComboBox* m_sliceLevel = nullptr;
    QLineEdit* m_sbatch = nullptr;
    QPlainTextEdit* m_manifest = nullptr;
    QPushButton* m_run = nullptr;
    QLabel* m_verdict = nullptr;
    PlanResultModel* m_results = nullptr;
    PlanTraceModel* m_traceModel = nullptr;
    QTreeView* m_engines = nullptr;
    QTreeView* m_trace = nullptr;
    QString m_sourceFlags;
    QString m_verdictText;
    QStringList m_levelNames;
    PlanAnswerPtr m_answer;
    bool m_asked = false;
    bool m_syncing = false; // a field and the line are being brought in line; their signals are ours
    quint64 m_loads = 0;    // manifest files asked for; only the newest one's text is shown
    QTimer m_rerun;
};

} // namespace topodeck
