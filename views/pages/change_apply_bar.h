#pragma once

#include "session/cluster_session.h"

#include <QWidget>

#include <functional>
#include <map>

class QCheckBox;
class QProgressBar;
class QPushButton;

namespace topodeck {

// Nodes with label changes, each once (the plan keeps its changes by node).
std::size_t nodesWithChanges(const ChangePlan& plan);

// Sending a previewed plan to the cluster: Dry Run on Server, Apply (in batches, with progress)
// and Cancel, each off with the reason in its tooltip (a source that takes no apply, drift, a
// plan the cluster would refuse, writes not allowed). Writing is off for every cluster until the
// operator turns it on for that cluster: the switch (writesAllowed) sits in the page's cluster
// row, above the plan, next to the cluster's name.
class ChangeApplyBar : public QWidget {
    Q_OBJECT
public:
    ChangeApplyBar(ClusterSession* session, QWidget* parent = nullptr);

    QCheckBox* writesAllowed() const { return m_writes; }
    QPushButton* dryRunButton() const { return m_dryRun; }
    QPushButton* applyButton() const { return m_apply; }
    QPushButton* cancelButton() const { return m_cancel; }
    bool isApplying() const { return m_applying; }

    void setJournalFolder(const QString& folder) { m_journalFolder = folder; }
    void setBatchSize(std::size_t nodes) { m_batchSize = nodes; }
    void setConfirmation(std::function<bool(const QString& question)> confirm) { m_confirm = std::move(confirm); }
    // The cluster open: the writes switch as the operator left it for that cluster.
    void setCluster(const QString& sourceName);
    // The plan an apply would send (null: none previewed).
    void setPreview(ChangePreviewPtr preview) { m_preview = std::move(preview); }
    void updateActions();

public Q_SLOTS:
    void dryRunOnServer() { startApply(true); }
    void apply() { startApply(false); }
    void cancel();

Q_SIGNALS:
    // For the page's status line.
    void statusChanged(const QString& text, bool problem);
    // An apply or a dry run started: the rest of the page waits.
    void started();
    // The server's answer, said in lines: the outcome first, then each refusal and the journal.
    void answered(const topodeck::ApplyAnswerPtr& answer, const QStringList& lines, bool problem);

private:
    void startApply(bool dryRunOnly);
    QString confirmationQuestion(const ChangePlan& plan) const;
    QString journalPathFor(const ChangePlan& plan) const;
    void showProgress(quint64 done, quint64 total);
    void showAnswer(const ApplyAnswerPtr& answer);

    ClusterSession* m_session;
    std::function<bool(const QString&)> m_confirm;
    QString m_journalFolder;
    QString m_sourceName;
    std::size_t m_batchSize = ApplyRequest{}.batchSize;
    ChangePreviewPtr m_preview;
    bool m_applying = false;
    std::map<QString, bool> m_writesByCluster; // off unless turned on, per cluster, for this window

    QCheckBox* m_writes = nullptr;
    QPushButton* m_dryRun = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
};

} // namespace topodeck
