import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/**
 * The activate-plan prompt opened by an action the server refused for want of a plan
 * (`subscription_required`), such as scheduling a campaign: the same words and way to the plans
 * as the prompt the shell shows an owner, but asked for by the action, so "Later" dismissed in the
 * shell does not hide it.
 */
export function PlanRequiredModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('billing');
  const navigate = useNavigate();
  return (
    <Modal opened={opened} onClose={onClose} title={t('activate.title')} centered>
      <Stack>
        <Text size="sm">{t('activate.text')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('activate.later')}
          </Button>
          <Button onClick={() => navigate('/profile/subscriptions')}>{t('activate.choose')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
