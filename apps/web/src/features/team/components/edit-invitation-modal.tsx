import type { TInvitation } from '@herald/shared/team/team.schemas';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { delay, SUBMIT_DELAY_MS } from '../../../lib/delay.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useUpdateInvitation } from '../api/update-invitation.ts';
import type { TInvitableRole } from '../invitable-roles.ts';
import { RoleRadioGroup } from './role-radio-group.tsx';

/** Edits the role of an invitation; its e-mail is locked. */
export function EditInvitationModal({ invitation, onClose }: { invitation: TInvitation | null; onClose: () => void }) {
  const { t } = useTranslation('team');
  const update = useUpdateInvitation();
  const [role, setRole] = useState<TInvitableRole>('team_operator');
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    if (invitation) setRole(invitation.role);
  }, [invitation]);

  const onSave = async () => {
    if (!invitation) return;
    setSubmitting(true);
    try {
      await delay(SUBMIT_DELAY_MS);
      await update.mutateAsync({ id: invitation.id, role });
      notifySuccess(t('invitationUpdated'));
      onClose();
    } catch {
      // The API client and the mutation cache have already told the user.
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal opened={invitation !== null} onClose={onClose} title={t('editInvitation')} centered>
      <Stack>
        <TextInput label={t('email')} value={invitation?.email ?? ''} disabled />
        <RoleRadioGroup value={role} onChange={setRole} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={submitting}>
            {t('common:cancel')}
          </Button>
          <Button onClick={onSave} loading={submitting} disabled={role === invitation?.role}>
            {t('common:save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
