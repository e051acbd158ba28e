#pragma once

#include "session/cluster_session.h"

#include <QWidget>

class QLineEdit;
class QListWidget;
class QPushButton;

namespace topodeck {

// The change plan being made, the changes page's upper half: the Nodes and Labels fields
// (kubectl label's syntax), the relabel generator's keys, the plan's operations and object
// changes, and Open / Save. It holds the plan as the page knows it and asks for its preview; the
// page hands back what the preview found (takePreview), which the plan then becomes.
class ChangePlanEditor : public QWidget {
    Q_OBJECT
public:
    explicit ChangePlanEditor(QWidget* parent = nullptr);

    QLineEdit* targetEdit() const { return m_target; }
    QLineEdit* labelsEdit() const { return m_labels; }
    QLineEdit* relabelKeysEdit() const { return m_relabelKeys; }
    QLineEdit* relabelRemoveEdit() const { return m_relabelRemove; }
    QPushButton* addButton() const { return m_add; }
    QListWidget* operationsList() const { return m_operations; }

    // A node name or domain path for the Nodes field; the Labels field takes the keyboard.
    void setTarget(const QString& target, bool isNode);
    // A preview answered. True: the plan is what it previewed. False: it did not preview, and an
    // operation just added (which did not resolve) is dropped again.
    bool takePreview(const ChangePreview& preview);
    // Forgets the plan (the page clears its preview alongside).
    void clear();
    // Add, Make Plan and Preview Again wait while an apply runs.
    void updateActions(bool applying);

public Q_SLOTS:
    bool addOperation();
    void makeRelabelPlan();
    void removeOperation();
    void openPlan(const QString& path);
    void openJournal(const QString& path);
    void savePlan(const QString& path);
    void previewAgain();
    // A plan that keeps the values it expects (an apply's undo), previewed.
    void previewFixedPlan(topodeck::ChangePlan plan);
    void previewObjectChanges(const std::vector<topodeck::ObjectKind>& kinds,
                              const std::vector<topodeck::ObjectChange>& changes);

Q_SIGNALS:
    // The page adds the planner's gang, and asks the session.
    void previewRequested(const topodeck::ChangePreviewRequest& request);
    // Clear, or the last operation removed: the page clears the plan and its preview.
    void clearRequested();
    // Input the plan does not take, said in the page's status line.
    void refused(const QString& why);

private:
    // What the preview asked for was: the plan made here, one read from a file (or a journal's
    // undo), or a plan made here with one operation more, dropped again if it does not resolve.
    enum class Pending { Made, FromFile, Added };
    QLayout* buildFields();
    QLayout* buildButtons();
    ChangePreviewRequest planRequest() const;
    void requestPreview(ChangePreviewRequest request, Pending pending);
    void nameIfUnnamed();
    void showOperations();
    bool isEmpty() const { return m_plan.operations.empty() && m_plan.empty(); }

    ChangePlan m_plan;           // as the page holds it: operations, and changes once previewed
    bool m_planFromFile = false; // keeps its preconditions: not resolved again
    Pending m_pending = Pending::Made;

    QLineEdit* m_target = nullptr;
    QLineEdit* m_labels = nullptr;
    QPushButton* m_add = nullptr;
    QLineEdit* m_relabelKeys = nullptr;
    QLineEdit* m_relabelRemove = nullptr;
    QPushButton* m_relabel = nullptr;
    QListWidget* m_operations = nullptr;
    QPushButton* m_previewAgain = nullptr;
};

} // namespace topodeck
