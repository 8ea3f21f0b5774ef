import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { ProfileForm } from '../../../features/auth/components/profile-form.tsx';

export function ProfileInfoPage() {
  const { t } = useTranslation('profile');
  const user = useCurrentUser();
  return (
    <Stack>
      <Title order={3}>{t('nav.personal')}</Title>
      {user.isPending ? (
        <LoadingState />
      ) : user.isError ? (
        <ErrorState error={user.error} onRetry={() => user.refetch()} />
      ) : (
        <ProfileForm key={user.data.id} user={user.data} />
      )}
    </Stack>
  );
}
