#pragma once

#include "session/cluster_session.h"

#include <QDialog>

#include <vector>

class QLabel;
class QPushButton;
class QTreeView;

namespace topodeck {

class HyperNodeTreeModel;

// Changes › Edit HyperNodes…: the cluster's Volcano HyperNodes as a tree (tier, tier name,
// members), edited on a copy — a node or a HyperNode moved to another parent (drag and drop, or
// Move To…), a tier renamed, a HyperNode added or deleted, Undo — then Preview Changes hands the
// ObjectChanges that make the cluster's HyperNodes into the copy to the Changes page. A cluster
// without HyperNodes can start from the hierarchy shown (hyperNodesFromIndex). The objects are
// taken on the session's worker; nothing here reads files or the state.
class HyperNodeEditor : public QDialog {
    Q_OBJECT
public:
    explicit HyperNodeEditor(ClusterSession* session, QWidget* parent = nullptr);

    // Asks the session for the current objects; the copy is replaced when nothing is edited yet.
    void refresh();
    bool hasObjects() const { return m_objects != nullptr; }

    HyperNodeTreeModel* model() const { return m_model; }
    QTreeView* treeView() const { return m_tree; }
    QPushButton* previewButton() const { return m_preview; }
    QPushButton* fromHierarchyButton() const { return m_fromHierarchy; }
    QString statusText() const;

    // The edits the buttons make, without their dialogs (tests; each says what went wrong in the status).
    bool moveSelectedTo(const QString& parent); // empty: to the top (HyperNodes only)
    bool renameTier(int tier, const QString& tierName);
    bool addHyperNode(const QString& name, int tier, const QString& tierName, const QString& parent);
    bool deleteSelected();
    // Replaces the copy with the hierarchy shown as HyperNodes (all of them new objects).
    void startFromHierarchy();
    // The changes from the cluster's HyperNodes to the copy (empty before the objects arrived).
    std::vector<ObjectChange> changes() const;

public Q_SLOTS:
    void previewChanges();

Q_SIGNALS:
    // Preview Changes: the HyperNode changes for the Changes page (which replace its earlier ones).
    void previewRequested(const std::vector<topodeck::ObjectKind>& kinds,
                          const std::vector<topodeck::ObjectChange>& changes);
    void objectsShown(); // each time the cluster's objects arrive (tests wait for it)

private:
    void showObjects(const TopologyObjectsPtr& objects);
    void chooseParent();
    void chooseTierName();
    void chooseNewHyperNode();
    bool report(const Status& status);
    bool refuse(const QString& why);
    void updateActions();
    void setStatus(const QString& text, bool problem = false);
    QModelIndex selected() const;

    ClusterSession* m_session;
    TopologyObjectsPtr m_objects;
    bool m_edited = false;
    HyperNodeTreeModel* m_model = nullptr;
    QTreeView* m_tree = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_fromHierarchy = nullptr;
    QPushButton* m_move = nullptr;
    QPushButton* m_renameTier = nullptr;
    QPushButton* m_add = nullptr;
    QPushButton* m_delete = nullptr;
    QPushButton* m_undo = nullptr;
    QPushButton* m_reset = nullptr;
    QPushButton* m_preview = nullptr;
};

} // namespace topodeck
