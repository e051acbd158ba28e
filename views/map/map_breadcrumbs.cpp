#include "views/map/map_breadcrumbs.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace topodeck {

MapBreadcrumbs::MapBreadcrumbs(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->setSpacing(2);
    m_crumbs = new QHBoxLayout;
    m_crumbs->setSpacing(0);
    layout->addLayout(m_crumbs);
    layout->addStretch(1);
    m_hint = new QLabel(tr("Map keys: arrows move · Enter zooms in · Backspace out · Home fits"), this);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_hint);
    setAccessibleName(tr("Map location"));
    rebuild();
}

void MapBreadcrumbs::setSnapshot(ClusterSnapshotPtr snapshot) {
    const bool otherSource = !m_snapshot || !snapshot || m_snapshot->sourceEpoch != snapshot->sourceEpoch;
    m_snapshot = std::move(snapshot);
    const bool focusGone = !m_snapshot || m_focus >= m_snapshot->index.domainSlots() ||
                           !m_snapshot->index.domain(m_focus).alive;
    if (otherSource || focusGone) m_focus = kRootDomain;
    // A domain's names never change while it lives: only a new focus or source redraws.
    if (otherSource || focusGone) rebuild();
}

void MapBreadcrumbs::setFocusDomain(DomainId id) {
    if (id == m_focus) return;
    m_focus = id;
    rebuild();
}

void MapBreadcrumbs::rebuild() {
    while (QLayoutItem* item = m_crumbs->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    std::vector<DomainId> path{kRootDomain};
    if (m_snapshot && m_focus < m_snapshot->index.domainSlots() && m_snapshot->index.domain(m_focus).alive)
        path = m_snapshot->index.pathTo(m_focus);
    for (std::size_t i = 0; i < path.size(); ++i) {
        const DomainId id = path[i];
        if (i > 0) {
            auto* separator = new QLabel(QStringLiteral("›"), this);
            separator->setForegroundRole(QPalette::PlaceholderText);
            m_crumbs->addWidget(separator);
        }
        auto* button = new QToolButton(this);
        button->setAutoRaise(true);
        button->setFocusPolicy(Qt::NoFocus); // the map keeps the keyboard; Backspace goes up
        QString text = tr("Cluster");
        if (id != kRootDomain && m_snapshot) {
            const Domain& domain = m_snapshot->index.domain(id);
            const auto& levels = m_snapshot->index.spec().levels;
            const QString level = domain.level >= 0 && std::size_t(domain.level) < levels.size()
                                      ? QString::fromStdString(levels[std::size_t(domain.level)].name)
                                      : QString();
            text = domain.unlabelled ? tr("(no %1)").arg(level) : QString::fromStdString(domain.value);
            button->setToolTip(tr("%1 %2: zoom here").arg(level, QString::fromStdString(m_snapshot->index.pathName(id))));
        } else {
            button->setToolTip(tr("The whole cluster (Home)"));
        }
        button->setText(text);
        if (i + 1 == path.size()) {
            QFont bold = button->font();
            bold.setBold(true);
            button->setFont(bold);
        }
        connect(button, &QToolButton::clicked, this, [this, id] { Q_EMIT domainChosen(id); });
        m_crumbs->addWidget(button);
    }
}

QStringList MapBreadcrumbs::parts() const {
    QStringList texts;
    for (int i = 0; i < m_crumbs->count(); ++i)
        if (auto* button = qobject_cast<QToolButton*>(m_crumbs->itemAt(i)->widget())) texts << button->text();
    return texts;
}

} // namespace topodeck
