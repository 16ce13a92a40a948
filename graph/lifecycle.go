package graph

// lifecycleOf presents the selected coordinate's signed archive, deletion
// or gapped restart. It is presentation only: the resolution's member sets
// never come from it.
func lifecycleOf(s *snapshot, selected string) Lifecycle {
	if d, ok := s.deleted[selected]; ok {
		return Lifecycle{Status: LifecycleDeleted, Actor: selected, Time: d.Time}
	}
	a := s.anns[selected]
	if a == nil || !a.RoleAware() {
		return Lifecycle{Status: LifecycleActive}
	}
	if t, ok := restartTime(a); ok {
		return Lifecycle{Status: LifecycleRestarted, Actor: selected, Time: t}
	}
	anyActive, lastEnd := false, int64(-1)
	for _, r := range a.Roles {
		if r.Active() {
			anyActive = true
		}
		if r.NumericallyEnded() {
			lastEnd = max(lastEnd, r.Boundaries[len(r.Boundaries)-1])
		}
	}
	if !anyActive && lastEnd >= 0 {
		return Lifecycle{Status: LifecycleArchived, Actor: selected, Time: lastEnd}
	}
	return Lifecycle{Status: LifecycleActive}
}

// restartTime finds a gapped same-coordinate restart: an active self-M whose
// signed start S is later than the end of every other self-role interval,
// all of which are numerically closed. A self-m ending exactly when self-M
// starts is the continuous m->M promotion, not a restart.
func restartTime(a *Announcement) (int64, bool) {
	var start int64
	found := false
	for _, r := range a.Roles {
		if r.Letter == RoleLead && r.Subject == a.Author && r.Active() && !r.Untimed() {
			start, found = r.LastStart(), true
		}
	}
	if !found {
		return 0, false
	}
	closed := 0
	for _, r := range a.Roles {
		if r.Subject != a.Author || r.Letter == RoleModerator || !r.Valid {
			continue
		}
		for _, iv := range r.Intervals() {
			if r.Letter == RoleLead && iv.End == EndOpen && iv.Start == start {
				continue // the new lifecycle itself
			}
			if iv.End != EndSigned || iv.EndTime >= start {
				return 0, false
			}
			closed++
		}
	}
	return start, closed > 0
}
