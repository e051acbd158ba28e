#pragma once

#include "session/cluster_session.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace topodeck {

// Changes › Edit Topology Levels…: a Kueue or KAI Topology (one the cluster has, or a new one)
// and its ordered level label keys, top level first — added from the keys the nodes carry,
// removed, moved up or down — with, for Kueue, a ResourceFlavor that names it (topologyName,
// nodeLabels). Preview Changes hands the ObjectChanges to the Changes page. A Topology's levels
// cannot change once it exists: the preview says so as a problem, and refuses the apply.
class TopologyEditor : public QDialog {
    Q_OBJECT
public:
    explicit TopologyEditor(ClusterSession* session, QWidget* parent = nullptr);

    // Asks the session for the current objects and the nodes' label keys.
    void refresh();
    bool hasObjects() const { return m_objects != nullptr; }

    // Kueue (false) or KAI (true), and the Topology's name: its levels are shown.
    void choose(bool kai, const QString& name);
    QStringList levels() const;
    void setLevels(const QStringList& keys);
    bool addLevel(const QString& key); // at the end (the lowest level); false when listed already or empty
    void removeSelectedLevel();
    void moveSelectedLevel(int by); // -1 up (towards the top level), +1 down
    // Kueue only: a ResourceFlavor that names this Topology (empty name: none).
    void setFlavor(const QString& name, const QString& nodeLabels);

    // The changes the editor stands for now; an error (a flavor's labels that do not read) in `why`.
    std::vector<ObjectChange> changes(QString* why = nullptr) const;

    QComboBox* kindBox() const { return m_kind; }
    QComboBox* nameBox() const { return m_name; }
    QListWidget* levelList() const { return m_levels; }
    QComboBox* keyBox() const { return m_key; }
    QPushButton* previewButton() const { return m_preview; }
    QString statusText() const;

public Q_SLOTS:
    void previewChanges();

Q_SIGNALS:
    void previewRequested(const std::vector<topodeck::ObjectKind>& kinds,
                          const std::vector<topodeck::ObjectChange>& changes);
    void objectsShown();

private:
    ObjectKind kind() const;
    void showObjects(const TopologyObjectsPtr& objects);
    void fillNames();
    void showTopology();
    void updateActions();
    void setStatus(const QString& text, bool problem = false);

    ClusterSession* m_session;
    TopologyObjectsPtr m_objects;
    QComboBox* m_kind = nullptr;
    QComboBox* m_name = nullptr;
    QLabel* m_existing = nullptr;
    QListWidget* m_levels = nullptr;
    QComboBox* m_key = nullptr;
    QPushButton* m_addKey = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_up = nullptr;
    QPushButton* m_down = nullptr;
    QGroupBox* m_flavorBox = nullptr;
    QComboBox* m_flavor = nullptr;
    QLineEdit* m_flavorLabels = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_preview = nullptr;
};

} // namespace topodeck
