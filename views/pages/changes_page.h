#pragma once

#include "session/cluster_session.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace topodeck {

class ChangeApplyBar;
class ChangeJournalTab;
class ChangePlanEditor;
class ChangePreviewTabs;
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
//
// The page wires its parts together: the plan editor (ChangePlanEditor), the preview's tabs
// (ChangePreviewTabs), the apply bar (ChangeApplyBar) and the journal (ChangeJournalTab); it
// keeps the preview shown, the cluster's name and the status line.
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
    void setJournalFolder(const QString& folder);
    // Nodes patched per batch (a conflict stops the apply at the end of its batch).
    void setBatchSize(std::size_t nodes);
    // Asked before a real apply with what it will do; default: a question box (tests answer it).
    void setConfirmation(std::function<bool(const QString& question)> confirm);

    QLineEdit* targetEdit() const;
    QLineEdit* labelsEdit() const;
    QLineEdit* relabelKeysEdit() const;
    QLineEdit* relabelRemoveEdit() const;
    QCheckBox* writesAllowed() const;
    QPushButton* addButton() const;
    QPushButton* dryRunButton() const;
    QPushButton* applyButton() const;
    QPushButton* cancelButton() const;
    QPushButton* undoButton() const;
    QListWidget* operationsList() const;
    QListWidget* risksList() const;
    QListWidget* journalList() const;
    QPlainTextEdit* serverAnswer() const;
    QPlainTextEdit* topologyText() const;
    QPlainTextEdit* objectsText() const;
    QTableWidget* gangTable() const;
    QTabWidget* previewTabs() const;
    LabelChangesModel* labelChanges() const;
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

private:
    void requestPreview(ChangePreviewRequest request);
    void sourceChanged(const SourceStatus& status);
    void showPreview(const ChangePreviewPtr& preview);
    QString previewSummary(const ChangePreview& preview) const;
    void showApplied(const ApplyAnswerPtr& answer, const QStringList& lines, bool problem);
    void updateActions();
    void setStatus(const QString& text, bool problem = false);

    ClusterSession* m_session;
    std::function<QString()> m_gangFlags;
    QString m_sourceName;
    ChangePreviewPtr m_preview;

    QLabel* m_cluster = nullptr;
    ChangePlanEditor* m_editor = nullptr;
    ChangePreviewTabs* m_previewTabs = nullptr;
    ChangeJournalTab* m_journal = nullptr;
    ChangeApplyBar* m_applyBar = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace topodeck
