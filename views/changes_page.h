#pragma once

#include "session/cluster_session.h"

#include <QWidget>

#include <functional>
#include <map>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace topodeck {

class DiffHighlighter;
class LabelChangesModel;

// "node-a node-b", "-l SELECTOR", "--domain PATH" (any mix: their union), as `topodeckctl label`
// names nodes. Errors say what is wrong.
Result<NodeTarget> parseNodeTarget(const QString& words);

// The changes page: a change plan of node-label edits made here (kubectl label's syntax on the
// selection, a domain, a selector or names), made by the relabel generator, of topology objects
// from the HyperNode and Topology editors, or opened from a file, previewed against the live
// cluster (the label diff, each object's diff, the hierarchy's diff with GPUs per domain, the
// risks, the planner's gang before and after), then dry-run on the server and applied in batches with progress and
// Cancel. Writing is off for every cluster until the operator turns it on for that cluster.
// Every apply leaves a journal; Undo previews the plan that puts the labels back.
class ChangesPage : public QWidget {
    Q_OBJECT
public:
    enum GangColumn { EngineColumn, BeforeColumn, AfterColumn, GangColumnCount };

    explicit ChangesPage(ClusterSession* session, QWidget* parent = nullptr);

    // Where the gang compared before and after comes from (the planner's flags).
    void setGangFlagsProvider(std::function<QString()> provider) { m_gangFlags = std::move(provider); }
    // A node name or domain path the window has selected, for the Nodes field.
    void setTarget(const QString& target, bool isNode);
    // Folder of the journals (tests point it elsewhere); default: the application data folder.
    void setJournalFolder(const QString& folder) { m_journalFolder = folder; }
    // Nodes patched per batch (a conflict stops the apply at the end of its batch).
    void setBatchSize(std::size_t nodes) { m_batchSize = nodes; }
    // Asked before a real apply with what it will do; default: a question box (tests answer it).
    void setConfirmation(std::function<bool(const QString& question)> confirm) { m_confirm = std::move(confirm); }

    QLineEdit* targetEdit() const { return m_target; }
    QLineEdit* labelsEdit() const { return m_labels; }
    QLineEdit* relabelKeysEdit() const { return m_relabelKeys; }
    QLineEdit* relabelRemoveEdit() const { return m_relabelRemove; }
    QCheckBox* writesAllowed() const { return m_writes; }
    QPushButton* addButton() const { return m_add; }
    QPushButton* dryRunButton() const { return m_dryRun; }
    QPushButton* applyButton() const { return m_apply; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* undoButton() const { return m_undo; }
    QListWidget* operationsList() const { return m_operations; }
    QListWidget* risksList() const { return m_risks; }
    QListWidget* journalList() const { return m_journals; }
    QPlainTextEdit* serverAnswer() const { return m_serverAnswer; }
    QPlainTextEdit* topologyText() const { return m_topology; }
    QPlainTextEdit* objectsText() const { return m_objects; }
    QTableWidget* gangTable() const { return m_gang; }
    QTabWidget* previewTabs() const { return m_tabs; }
    LabelChangesModel* labelChanges() const { return m_model; }
    const ChangePreviewPtr& preview() const { return m_preview; }
    QString statusText() const;

public Q_SLOTS:
    // Adds the Nodes and Labels fields as one operation, and previews the plan.
    bool addOperation();
    // A new plan from the relabel generator: every node labelled with its domains under the
    // hierarchy shown, one key per level (the Relabel fields), the old keys removed if asked.
    void makeRelabelPlan();
    void removeOperation();
    void clearPlan();
    // Opens a plan file (its preconditions kept), or saves the plan.
    void openPlan(const QString& path);
    void savePlan(const QString& path);
    // The plan that undoes a journal file's apply, previewed.
    void openJournal(const QString& path);
    // The same plan against the cluster as it is now.
    void previewAgain();
    void dryRunOnServer();
    void apply();
    void cancel();
    // The plan that puts back what the journal selected applied, previewed.
    void undoSelected();
    // Topology objects from an editor (HyperNodes, a Topology, a flavor): they take the place of
    // the plan's object changes of these kinds (label operations stay), and the plan is
    // previewed; the Objects tab shows each object's diff. A plan from a file starts afresh.
    void previewObjectChanges(const std::vector<topodeck::ObjectKind>& kinds,
                              const std::vector<topodeck::ObjectChange>& changes);

Q_SIGNALS:
    // The nodes the previewed plan changes, for the map (empty: none).
    void nodesChanged(const std::vector<topodeck::NodeId>& nodes, const QString& meaning);
    void previewShown(); // once per preview (tests wait for it)
    void applyDone();    // once per apply or dry run answered

protected:
    void changeEvent(QEvent* event) override;

private:
    // What the preview asked for was: the plan made here, one read from a file (or a journal's
    // undo), or a plan made here with one operation more, dropped again if it does not resolve.
    enum class Pending { Made, FromFile, Added };
    void requestPreview(ChangePreviewRequest request, Pending pending);
    ChangePreviewRequest planRequest() const;
    void sourceChanged(const SourceStatus& status);
    void showOperations();
    void showPreview(const ChangePreviewPtr& preview);
    void showProgress(quint64 done, quint64 total);
    void showApplied(const ApplyAnswerPtr& answer);
    void startApply(bool dryRunOnly);
    void updateActions();
    void setStatus(const QString& text, bool problem = false);
    QString journalPathFor(const ChangePlan& plan) const;
    QWidget* buildPlanArea();
    QWidget* buildJournalTab();

    ClusterSession* m_session;
    std::function<QString()> m_gangFlags;
    std::function<bool(const QString&)> m_confirm;
    QString m_journalFolder;
    QString m_sourceName;
    std::size_t m_batchSize = ApplyRequest{}.batchSize;
    Pending m_pending = Pending::Made;
    ChangePlan m_plan;             // as the page holds it: operations, and changes once previewed
    bool m_planFromFile = false;   // keeps its preconditions: not resolved again
    ChangePreviewPtr m_preview;
    bool m_applying = false;
    std::map<QString, bool> m_writesByCluster; // off unless turned on, per cluster, for this window
    std::vector<ChangeJournal> m_journalEntries;

    QLabel* m_cluster = nullptr;
    QCheckBox* m_writes = nullptr;
    QLineEdit* m_target = nullptr;
    QLineEdit* m_labels = nullptr;
    QPushButton* m_add = nullptr;
    QLineEdit* m_relabelKeys = nullptr;
    QLineEdit* m_relabelRemove = nullptr;
    QPushButton* m_relabel = nullptr;
    QListWidget* m_operations = nullptr;
    QTabWidget* m_tabs = nullptr;
    LabelChangesModel* m_model = nullptr;
    QTableView* m_changes = nullptr;
    QPlainTextEdit* m_topology = nullptr;
    QPlainTextEdit* m_objects = nullptr;
    DiffHighlighter* m_objectColours = nullptr;
    QListWidget* m_risks = nullptr;
    QLabel* m_gangNote = nullptr;
    QTableWidget* m_gang = nullptr;
    QPushButton* m_previewAgain = nullptr;
    QPushButton* m_dryRun = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QPlainTextEdit* m_serverAnswer = nullptr;
    QListWidget* m_journals = nullptr;
    QPushButton* m_undo = nullptr;
};

} // namespace topodeck
