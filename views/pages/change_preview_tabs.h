#pragma once

#include "session/cluster_session.h"

#include <QColor>
#include <QTabWidget>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QTableView;
class QTableWidget;

namespace topodeck {

class DiffHighlighter;
class LabelChangesModel;

// What a previewed change plan does, one tab each: the label diff (Labels), the hierarchy's diff
// with GPUs per domain (Topology), the risks, the planner's gang before and after (Gang), and
// each object's diff (Objects). The page adds its Journal tab after them.
class ChangePreviewTabs : public QTabWidget {
    Q_OBJECT
public:
    // What goes and what comes, readable on either theme; the page's problems share the red.
    struct DiffColours {
        QColor problem, good;
    };
    static DiffColours diffColours(const QPalette& palette);

    explicit ChangePreviewTabs(QWidget* parent = nullptr);

    LabelChangesModel* labelChanges() const { return m_model; }
    QPlainTextEdit* topologyText() const { return m_topology; }
    QPlainTextEdit* objectsText() const { return m_objects; }
    QListWidget* risksList() const { return m_risks; }
    QTableWidget* gangTable() const { return m_gang; }

    // gangFlags: the planner's flags the gang was dry-run with, for the Gang tab's note.
    void showPreview(const ChangePreviewPtr& preview, const QString& gangFlags);
    void clear();

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildGangTab();
    void showObjects(const ChangePreview& preview);
    void showRisks(const ChangePreview& preview);
    void showGang(const ChangePreview& preview, const QString& gangFlags);
    void applyColours();

    LabelChangesModel* m_model = nullptr;
    QTableView* m_changes = nullptr;
    QPlainTextEdit* m_topology = nullptr;
    QListWidget* m_risks = nullptr;
    QLabel* m_gangNote = nullptr;
    QTableWidget* m_gang = nullptr;
    QPlainTextEdit* m_objects = nullptr;
    DiffHighlighter* m_objectColours = nullptr;
};

} // namespace topodeck
